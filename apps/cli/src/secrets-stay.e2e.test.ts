// Nothing secret leaves or persists: the built `xzatoma chat`, fed by a pipe, against a
// scripted model that reads a file holding a canary token (under a name that does not
// look secret) and repeats what it read, then makes a call that fails quoting a token the
// user typed. Neither token may reach a span exported to a real OTLP receiver, a line of
// the chat trace log, or any byte under XZatoma's data directory (history database and
// its write-ahead log, audit log); the file's token may reach no model request either.
import { readdir, readFile, mkdir, mkdtemp, realpath, rm, writeFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startOtlpReceiver } from "@xzatoma/scripted-servers/otlp";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
  type ScriptedTurn,
} from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.test-support.js";

// Token-shaped canaries, built at run time so the repository holds no literal a scanner flags.
const FILE_CANARY = `ghp_${"Qz7rK2".repeat(6)}`;
const TYPED_CANARY = `ghp_${"Wm4tB9".repeat(6)}`;

function scenario(request: OllamaChatRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  const asked = request.messages.findLast((message) => message.role === "user")?.content ?? "";
  if (last?.role === "tool") {
    // A careless model repeats whatever the tool gave it.
    return { content: `Here is what I found:\n${last.content}` };
  }
  if (asked.startsWith("check the deploy settings"))
    return { toolCalls: [{ name: "read_file", arguments: { path: "deploy/settings.yaml" } }] };
  if (asked.startsWith("the old token was")) {
    const typed = asked.split(" ").at(-1) ?? "";
    // A path that does not exist: the failure quotes it, token and all.
    return { toolCalls: [{ name: "read_file", arguments: { path: `backup/${typed}.yaml` } }] };
  }
  return { content: "ok" };
}

let base: string;
let workspace: string;
let home: string;
let dataDir: string;
let model: ScriptedOllama;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-secrets-stay-")));
  workspace = path.join(base, "project");
  home = path.join(base, "home");
  dataDir = path.join(home, ".xzatoma");
  await mkdir(path.join(workspace, "deploy"), { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(
    path.join(workspace, "deploy", "settings.yaml"),
    `registry:\n  url: https://registry.example.org\n  github_token: ${FILE_CANARY}\n`,
  );
  model = await startScriptedOllama({ scenario });
});

afterAll(async () => {
  await model?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

/** Every file below `directory`, with its bytes. */
async function filesUnder(directory: string): Promise<{ file: string; bytes: Buffer }[]> {
  const found: { file: string; bytes: Buffer }[] = [];
  for (const entry of await readdir(directory, { recursive: true })) {
    const file = path.join(directory, entry);
    if ((await stat(file)).isFile()) found.push({ file, bytes: await readFile(file) });
  }
  return found;
}

describe("a secret read or typed in chat", () => {
  it("reaches no exported span, no chat log line and no byte of the data directory", async () => {
    const collector = await startOtlpReceiver();
    try {
      const outcome = await runCli(["chat", "--host", model.url], {
        cwd: workspace,
        env: {
          PATH: process.env["PATH"] ?? "",
          HOME: home,
          XZATOMA_HOME: dataDir,
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_METRICS_EXPORTER: "none",
        },
        input: `check the deploy settings\nthe old token was ${TYPED_CANARY}\n`,
      });
      expect(outcome.code, outcome.stderr).toBe(0);

      // The model read the file with its token hidden, and said so.
      const toolMessages = model.requests.flatMap((request) =>
        request.messages.filter((message) => message.role === "tool"),
      );
      expect(toolMessages.map((message) => message.content).join("\n")).toContain(
        "github_token: [REDACTED]",
      );
      expect(JSON.stringify(model.requests)).not.toContain(FILE_CANARY);
      expect(outcome.stdout).not.toContain(FILE_CANARY);

      // Spans: exported, with the failed call's status among them, and no token.
      const exported = JSON.stringify(collector.requests);
      expect(collector.spans().some((span) => span.name === "execute_tool read_file")).toBe(true);
      expect(collector.spans().some((span) => span.status?.code === 2)).toBe(true);
      expect(exported).not.toContain(FILE_CANARY);
      expect(exported).not.toContain(TYPED_CANARY);

      // The data directory: the chat log, the history database and its WAL, the audit log.
      const files = await filesUnder(dataDir);
      const chatLog = files.find(({ file }) => file.endsWith(path.join("logs", "chat.log")));
      expect(chatLog?.bytes.toString("utf8")).toContain("[REDACTED]");
      expect(files.some(({ file }) => /history\.db/.test(file))).toBe(true);
      for (const { file, bytes } of files) {
        expect(bytes.includes(FILE_CANARY), file).toBe(false);
        expect(bytes.includes(TYPED_CANARY), file).toBe(false);
      }
    } finally {
      await collector.close();
    }
  }, 60_000);
});
