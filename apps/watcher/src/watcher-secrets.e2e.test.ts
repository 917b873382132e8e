// Nothing secret leaves the watcher: `xzatoma-watcher run` against a real Kafka broker
// (tools/kafka/start.sh), a scripted model on 127.0.0.1 and a real OTLP receiver. The
// event's plan carries a token, the model reads a workspace file holding another (under a
// name that does not look secret) and repeats both, and a malformed message carries a
// third. No token may reach a result event, a dead letter, an exported span, a model
// request (the file's), or any byte of the data directory (history, ledger, logs).
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startTestBroker, type TestBroker } from "@xzatoma/scripted-servers/kafka";
import { startOtlpReceiver } from "@xzatoma/scripted-servers/otlp";
import { startScriptedOpenAI, type ScriptedOpenAI } from "@xzatoma/scripted-servers/openai";
import { Kafka, logLevel, type Consumer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectCommitted, type CommittedRecord } from "./committed-records.test-support.js";

const BIN = fileURLToPath(new URL("../bin/xzatoma-watcher.js", import.meta.url));
const BUILD = readFileSync(
  new URL("../../../packages/xzepr/src/__fixtures__/build_success_event.json", import.meta.url),
  "utf8",
);
const DEADLINE = 120_000;
// Token-shaped canaries, built at run time so the repository holds no literal a scanner flags.
const EVENT_CANARY = `ghp_${"Ev3nT8".repeat(6)}`;
const FILE_CANARY = `ghp_${"F1leK4".repeat(6)}`;
const POISON_CANARY = `ghp_${"Po1sN5".repeat(6)}`;
const CANARIES = [EVENT_CANARY, FILE_CANARY, POISON_CANARY];

let broker: TestBroker;
let kafka: Kafka;
let home: string;
let model: ScriptedOpenAI;
const children = new Set<ChildProcess>();
const consumers: Consumer[] = [];

beforeAll(async () => {
  broker = await startTestBroker();
  kafka = new Kafka({ clientId: "e2e", brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  home = await mkdtemp(path.join(os.tmpdir(), "xz-watcher-secrets-"));
  model = await startScriptedOpenAI({
    apiKey: "sk-test",
    models: ["scripted-1"],
    scenario: (request) => {
      const last = request.messages.at(-1);
      // A careless model repeats the plan it was given and whatever a tool gave it.
      if (last?.role === "tool")
        return {
          content: `Read it:\n${last.content}\nAs asked: ${request.messages[1]?.content ?? ""}`,
        };
      return { toolCalls: [{ name: "read_file", arguments: { path: "deploy/settings.yaml" } }] };
    },
  });
}, 300_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  for (const consumer of consumers) await consumer.disconnect();
  await model?.close();
  await broker?.stop();
  await rm(home, { recursive: true, force: true });
}, 120_000);

/** Every committed record of `topic`, from the start, into an array that keeps growing. */
async function collect(topic: string): Promise<CommittedRecord[]> {
  const { seen, consumer } = await collectCommitted(kafka, topic);
  consumers.push(consumer);
  return seen;
}

/** A record's value and headers (`name=value` lines) as one text, to search for a secret. */
function wholeRecord(record: CommittedRecord | undefined): string {
  if (record === undefined) return "";
  const headers = Object.entries(record.headers).map(([name, value]) => `${name}=${value}`);
  return `${record.value?.toString("utf8") ?? ""}${headers.join("\n")}`;
}

async function until(what: string, check: () => boolean): Promise<void> {
  const end = Date.now() + DEADLINE;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function filesUnder(directory: string): Promise<{ file: string; bytes: Buffer }[]> {
  const found: { file: string; bytes: Buffer }[] = [];
  for (const entry of await readdir(directory, { recursive: true })) {
    const file = path.join(directory, entry);
    if ((await stat(file)).isFile()) found.push({ file, bytes: await readFile(file) });
  }
  return found;
}

describe("xzatoma-watcher run with secrets in events and files", () => {
  it("publishes results and dead letters, exports spans and keeps files with no token", async () => {
    const dataDir = path.join(home, "data");
    const workspace = path.join(home, "ws");
    await mkdir(path.join(workspace, "deploy"), { recursive: true });
    await writeFile(
      path.join(workspace, "deploy", "settings.yaml"),
      `registry:\n  github_token: ${FILE_CANARY}\n`,
    );
    const config = path.join(home, "config.json");
    await writeFile(
      config,
      JSON.stringify({
        provider: { type: "openai", openai: { base_url: model.url, model: "scripted-1" } },
        agent: { terminal: { sandbox: false } },
        persistence: { data_dir: dataDir },
        logging: { file: path.join(dataDir, "logs", "xzatoma.log") },
        watcher: {
          kafka: {
            brokers: broker.bootstrap,
            topic: "secrets.in",
            group_id: "secrets-group",
            session_timeout_ms: 6000,
          },
          logging: { level: "debug", file_path: path.join(dataDir, "watcher.log") },
        },
      }),
    );
    await mkdir(dataDir, { recursive: true });
    const results = await collect("secrets.in.results");
    const letters = await collect("secrets.in.dlq");
    const collector = await startOtlpReceiver();
    try {
      const child = spawn(
        process.execPath,
        [BIN, "run", "--config", config, "--workspace", workspace],
        {
          env: {
            ...process.env,
            OPENAI_API_KEY: "sk-test",
            XZATOMA_HOME: dataDir,
            OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
            OTEL_METRICS_EXPORTER: "none",
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      children.add(child);
      let log = "";
      child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
      child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await until("the watcher to consume", () => log.includes('"msg":"watching"'));

      const event = JSON.parse(BUILD) as { data: { events: { payload: unknown }[] } };
      const first = event.data.events[0];
      if (first)
        first.payload = { plan: `Check deploy/settings.yaml. The old token was ${EVENT_CANARY}.` };
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({
        topic: "secrets.in",
        messages: [
          { key: "build", value: JSON.stringify(event) },
          { key: "poison", value: `{"broken": "token=${POISON_CANARY}"` },
        ],
      });
      await producer.disconnect();
      await until("a result and a dead letter", () => results.length >= 1 && letters.length >= 1);
      child.kill("SIGTERM");
      await exited;
      children.delete(child);

      const result = wholeRecord(results[0]);
      // The run happened and its answer was published, with the tokens hidden.
      expect(result).toContain("[REDACTED]");
      expect(result).toContain("github_token");
      expect(wholeRecord(letters[0])).toContain("[REDACTED]");
      expect(JSON.stringify(model.requests)).not.toContain(FILE_CANARY);
      expect(collector.spans().length).toBeGreaterThan(0);
      const exported = JSON.stringify(collector.requests);
      for (const canary of CANARIES) {
        for (const record of [...results, ...letters])
          expect(wholeRecord(record).includes(canary)).toBe(false);
        expect(exported.includes(canary), "an exported span").toBe(false);
        for (const { file, bytes } of await filesUnder(dataDir))
          expect(bytes.includes(canary), file).toBe(false);
      }
    } finally {
      await collector.close();
    }
  }, 300_000);
});
