// The watcher service against a real Kafka broker (started once for this file by
// tools/kafka/start.sh), a scripted model on 127.0.0.1, and `xzatoma-watcher run` processes
// as an operator starts them. Waits are for conditions with generous deadlines, never timings.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startTestBroker, type TestBroker } from "@xzatoma/scripted-servers/kafka";
import {
  startScriptedOpenAI,
  type ChatScenario,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import { parseResultEvent, readDeadLetterHeaders } from "@xzatoma/xzepr";
import { Kafka, logLevel, type Producer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asMessage, collectCommitted } from "./committed-records.test-support.js";

const BIN = fileURLToPath(new URL("../bin/xzatoma-watcher.js", import.meta.url));
const fixture = (name: string) =>
  readFileSync(
    new URL(`../../../packages/xzepr/src/__fixtures__/${name}`, import.meta.url),
    "utf8",
  );
const BUILD = fixture("build_success_event.json");
const DEPLOY = fixture("deploy_success_event.json");
// XZepr's own notices: types the fixture test's filters turn away.
const RECEIVER_CREATED = fixture("receiver_created_event.json");
const GROUP_CREATED = fixture("group_created_event.json");
const DEADLINE = 120_000;

let broker: TestBroker;
let kafka: Kafka;
let producer: Producer;
let home: string;
const children = new Set<ChildProcess>();
const servers: ScriptedOpenAI[] = [];

beforeAll(async () => {
  broker = await startTestBroker();
  kafka = new Kafka({ clientId: "e2e", brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  producer = kafka.producer();
  await producer.connect();
  home = await mkdtemp(path.join(os.tmpdir(), "xz-watcher-kafka-"));
}, 300_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await producer?.disconnect();
  for (const server of servers) await server.close();
  await broker?.stop();
  await rm(home, { recursive: true, force: true });
}, 120_000);

/** An event with its own id (and plan), from a fixture. */
function eventWithId(text: string, id: string): string {
  return JSON.stringify({ ...(JSON.parse(text) as object), id });
}

async function model(scenario: ChatScenario): Promise<ScriptedOpenAI> {
  const server = await startScriptedOpenAI({ scenario, apiKey: "sk-test", models: ["scripted-1"] });
  servers.push(server);
  return server;
}

/** A config file for one test: its own topics, group and data directory. */
async function configFor(
  name: string,
  modelUrl: string,
  watcher: Record<string, unknown> = {},
): Promise<string> {
  const dir = path.join(home, name);
  const file = path.join(home, `${name}.json`);
  await writeFile(
    file,
    JSON.stringify({
      provider: { type: "openai", openai: { base_url: modelUrl, model: "scripted-1" } },
      agent: { terminal: { sandbox: false } },
      persistence: { data_dir: dir },
      watcher: {
        kafka: {
          brokers: broker.bootstrap,
          topic: `${name}.in`,
          group_id: `${name}-group`,
          session_timeout_ms: 6000,
          ...(watcher["kafka"] as object | undefined),
        },
        logging: { level: "debug" },
        ...Object.fromEntries(Object.entries(watcher).filter(([key]) => key !== "kafka")),
      },
    }),
  );
  return file;
}

interface Running {
  readonly child: ChildProcess;
  readonly log: () => string;
  readonly exited: Promise<number | null>;
}

function startWatcher(config: string, workspace: string): Running {
  const child = spawn(
    process.execPath,
    [BIN, "run", "--config", config, "--workspace", workspace],
    {
      env: { ...process.env, OPENAI_API_KEY: "sk-test", XZATOMA_HOME: path.dirname(config) },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.add(child);
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, log: () => log, exited };
}

/** Runs an `xzatoma-watcher` tool command to its end. */
function tool(
  args: string[],
  config: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args, "--config", config], {
      env: { ...process.env, OPENAI_API_KEY: "sk-test", XZATOMA_HOME: path.dirname(config) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.add(child);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + DEADLINE;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every committed record of `topic`, read from the start. */
const collect = (topic: string) => collectCommitted(kafka, topic);

describe("xzatoma-watcher run on a Kafka broker", () => {
  it("runs the fixture events, filters XZepr's notices, dead-letters bad input with reasons, runs a duplicate once, serves health and metrics, and stops gracefully on SIGTERM", async () => {
    const server = await model(() => ({ content: "Verified." }));
    const config = await configFor("fixtures", server.url, {
      filters: { event_types: ["build.success", "deployment.success"] },
      health: { port: 0 },
    });
    const results = await collect("fixtures.in.results");
    const letters = await collect("fixtures.in.dlq");
    const workspace = await mkdtemp(path.join(home, "ws-"));
    const watcher = startWatcher(config, workspace);
    await until("the watcher to consume", () => watcher.log().includes('"msg":"watching"'));
    const event = JSON.parse(BUILD) as {
      data: { events: Record<string, unknown>[] };
    } & Record<string, unknown>;
    await until("the health endpoint", () => watcher.log().includes('"msg":"health endpoint"'));
    const health = /"msg":"health endpoint".*?"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(
      watcher.log(),
    )?.[1];
    expect(health).toBeDefined();
    const readyz = await fetch(`${health}/readyz`);
    expect(readyz.status).toBe(200);
    expect(await readyz.json()).toMatchObject({ live: true, ready: true });
    await producer.send({
      topic: "fixtures.in",
      messages: [
        { key: "build", value: BUILD },
        { key: "deploy", value: DEPLOY },
        { key: "build", value: BUILD },
        { key: "bad-json", value: "{not json" },
        { key: "wrong", value: JSON.stringify({ hello: "world" }) },
        { key: "empty", value: "" },
        {
          // A structured plan that fails validation (no steps): dead-lettered, not run as a prompt.
          key: "invalid-plan",
          value: JSON.stringify({
            ...event,
            id: "01JXZEPRNOSTEPS0000000000",
            data: {
              ...event.data,
              events: [{ ...event.data.events[0], payload: { plan: { name: "no steps" } } }],
            },
          }),
        },
        {
          key: "no-plan",
          value: JSON.stringify({
            ...event,
            id: "01JXZEPRNOPLAN00000000000",
            data: { events: [], event_receivers: [], event_receiver_groups: [] },
          }),
        },
        { key: "receiver-created", value: RECEIVER_CREATED },
        { key: "group-created", value: GROUP_CREATED },
        { key: "huge", value: Buffer.alloc(10 * 1024 * 1024, 0x20) },
      ],
    });
    await until(
      "two results and five dead letters",
      () => results.seen.length >= 2 && letters.seen.length >= 5,
    );
    // Nothing more arrives for the duplicate.
    await producer.send({
      topic: "fixtures.in",
      messages: [{ key: "marker", value: eventWithId(DEPLOY, "01JXZEPRMARKER0000000000") }],
    });
    await until("the marker's result", () => results.seen.length >= 3);
    expect(results.seen.map((r) => r.key)).toEqual([
      "01JXZEPR0BUILD0DEMO000001",
      expect.stringMatching(/^01JXZEPR0DEPLOY/),
      "01JXZEPRMARKER0000000000",
    ]);
    for (const record of results.seen) {
      const parsed = parseResultEvent(asMessage(record));
      expect(parsed.kind).toBe("result");
      if (parsed.kind === "result") expect(parsed.event.data.answer).toBe("Verified.");
    }
    expect(letters.seen.map((r) => r.key)).toEqual([
      "bad-json",
      "wrong",
      "empty",
      "invalid-plan",
      "huge",
    ]);
    const reasons = letters.seen.map((r) => readDeadLetterHeaders(r.headers)?.reason ?? "");
    expect(reasons).toEqual([
      expect.stringMatching(
        /^The message is neither a CloudEvent nor an XZepr event: it is not valid JSON/,
      ),
      expect.stringMatching(
        /^The message is JSON but neither a CloudEvent nor an XZepr event: it has no specversion/,
      ),
      expect.stringMatching(/^The message has no value/),
      expect.stringMatching(
        /^The plan is not valid: event 01JXZEPRNOSTEPS0000000000: steps: is required/,
      ),
      expect.stringMatching(
        /^The message is 10485760 bytes, over watcher\.execution\.max_message_bytes/,
      ),
    ]);
    expect(letters.seen[0]?.value?.toString()).toBe("{not json");
    expect(server.chatRequests).toHaveLength(3);
    // XZepr's receiver-created and group-created notices are not among the configured types.
    const filtered = watcher
      .log()
      .split("\n")
      .filter((line) => line.includes('"msg":"filtered an event"'));
    expect(filtered.map((line) => (JSON.parse(line) as { event: string }).event)).toEqual([
      "01K0XZEPR0SYSTEM0EVENT0001",
      "01K0XZEPR0SYSTEM0EVENT0002",
    ]);
    // The metrics count what happened: 12 messages read, the marker included.
    const metrics = await (await fetch(`${health}/metrics`)).text();
    const series = (name: string, label?: string) =>
      Number(
        new RegExp(
          `^${name}(?:\\{[^}]*${label === undefined ? "" : label.replace(/"/g, '\\"')}[^}]*\\})? (\\d+)(?: \\d+)?$`,
          "m",
        ).exec(metrics)?.[1],
      );
    const count = (outcome: string) =>
      series("xzatoma_watcher_events_total", `xzatoma_watcher_outcome="${outcome}"`);
    expect({
      consumed: series("messaging_client_consumed_messages_total"),
      executed: count("executed"),
      duplicate: count("duplicate"),
      filtered: count("filtered"),
      skipped: count("skipped"),
      dead_lettered: count("dead_lettered"),
      failed: count("failed"),
    }).toEqual({
      consumed: 12,
      executed: 3,
      duplicate: 1,
      filtered: 2,
      skipped: 1,
      dead_lettered: 5,
      failed: 0,
    });
    // The dead letters by reason: two not events, one empty value, one invalid plan, one too large.
    const byReason = (code: string) =>
      series("xzatoma_watcher_dead_letters_total", `error_type="${code}"`);
    expect({
      undecodable: byReason("undecodable"),
      invalid_plan: byReason("invalid_plan"),
      too_large: byReason("too_large"),
      tombstone: byReason("tombstone"),
      no_plan: byReason("no_plan"),
    }).toEqual({ undecodable: 3, invalid_plan: 1, too_large: 1, tombstone: 0, no_plan: 0 });

    watcher.child.kill("SIGTERM");
    expect(await watcher.exited).toBe(0);
    await results.consumer.disconnect();
    await letters.consumer.disconnect();
  }, 300_000);

  it("after kill -9 in the middle of a run, a restarted watcher runs the event and its result appears exactly once", async () => {
    let calls = 0;
    const server = await model(() => {
      calls += 1;
      return { content: "Recovered." };
    });
    // The first attempt's model reply takes long enough to be killed during it.
    const slow = await model(() => ({ content: "never seen", delayMs: 600_000 }));
    const slowConfig = await configFor("crash", slow.url, {
      execution: { execution_timeout_secs: 600 },
    });
    const results = await collect("crash.in.results");
    const workspace = await mkdtemp(path.join(home, "ws-"));
    const first = startWatcher(slowConfig, workspace);
    await producer.send({ topic: "crash.in", messages: [{ key: "c", value: BUILD }] });
    await until("the first run to reach the model", () => slow.chatRequests.length > 0);
    first.child.kill("SIGKILL");
    await first.exited;
    // The same service (topic, group, data directory) restarted, on a model that answers.
    const config = await configFor("crash", server.url, {
      execution: { execution_timeout_secs: 600 },
    });
    expect(config).toBe(slowConfig);
    const second = startWatcher(config, workspace);
    await until("the result", () => results.seen.length >= 1);
    // A later event proves the consumer moved past the first without a second result.
    await producer.send({
      topic: "crash.in",
      messages: [{ key: "d", value: eventWithId(BUILD, "01JXZEPRAFTERCRASH0000000") }],
    });
    await until("the second result", () => results.seen.length >= 2);
    expect(results.seen.map((r) => r.key)).toEqual([
      "01JXZEPR0BUILD0DEMO000001",
      "01JXZEPRAFTERCRASH0000000",
    ]);
    expect(calls).toBe(2);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    await results.consumer.disconnect();
  }, 300_000);

  it("on SIGTERM in the middle of a run it exits 0 within the grace, publishing nothing; restarted, it runs the event and its result appears exactly once", async () => {
    // The first attempt's model reply takes far longer than the grace.
    const slow = await model(() => ({ content: "never seen", delayMs: 600_000 }));
    const server = await model(() => ({ content: "Ran after the restart." }));
    const settings = {
      execution: { execution_timeout_secs: 600, shutdown_grace_secs: 2 },
    };
    const slowConfig = await configFor("sigterm", slow.url, settings);
    const results = await collect("sigterm.in.results");
    const workspace = await mkdtemp(path.join(home, "ws-"));
    const first = startWatcher(slowConfig, workspace);
    await until("the watcher to consume", () => first.log().includes('"msg":"watching"'));
    await producer.send({ topic: "sigterm.in", messages: [{ key: "t", value: BUILD }] });
    await until("the run to reach the model", () => slow.chatRequests.length > 0);
    const signalled = Date.now();
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    // The grace (2 s), then the aborted run settles and the consumer leaves the group: a
    // bound for a loaded machine, far below the model's 600 s and the run's 600 s timeout.
    expect(Date.now() - signalled).toBeLessThan(2_000 + 60_000);
    expect(first.log()).toContain('"msg":"shutting down"');
    expect(slow.chatRequests).toHaveLength(1);
    // The same service restarted on a model that answers: the uncommitted event runs again.
    const config = await configFor("sigterm", server.url, settings);
    expect(config).toBe(slowConfig);
    const second = startWatcher(config, workspace);
    await until("the result", () => results.seen.length >= 1);
    // A later event proves the consumer moved past the first without a second result.
    await producer.send({
      topic: "sigterm.in",
      messages: [{ key: "u", value: eventWithId(BUILD, "01JXZEPRAFTERSIGTERM00000") }],
    });
    await until("the second result", () => results.seen.length >= 2);
    expect(results.seen.map((r) => r.key)).toEqual([
      "01JXZEPR0BUILD0DEMO000001",
      "01JXZEPRAFTERSIGTERM00000",
    ]);
    const parsed = parseResultEvent(asMessage(results.seen[0]!));
    expect(parsed.kind).toBe("result");
    if (parsed.kind === "result")
      expect(parsed.event.data).toMatchObject({
        status: "completed",
        answer: "Ran after the restart.",
      });
    expect(server.chatRequests).toHaveLength(2);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    await results.consumer.disconnect();
  }, 300_000);

  it("three watchers in one group share 60 events on 6 partitions; when one is killed the others take its partitions and every result arrives once", async () => {
    const server = await model(() => ({ content: "ok", delayMs: 50 }));
    const config = await configFor("scale", server.url, {
      kafka: { num_partitions: 6 },
      logging: { level: "info" },
    });
    const results = await collect("scale.in.results");
    const workspace = await mkdtemp(path.join(home, "ws-"));
    const members = [0, 1, 2].map(() => startWatcher(config, workspace));
    await until("three members consuming", () =>
      members.every((m) => m.log().includes('"msg":"watching"')),
    );
    const ids = Array.from({ length: 60 }, (_, i) => `01JXZEPRSCALE${String(i).padStart(12, "0")}`);
    await producer.send({
      topic: "scale.in",
      messages: ids.slice(0, 30).map((id) => ({ key: id, value: eventWithId(BUILD, id) })),
    });
    await until("some results", () => results.seen.length >= 10);
    members[0]?.child.kill("SIGKILL");
    await producer.send({
      topic: "scale.in",
      messages: ids.slice(30).map((id) => ({ key: id, value: eventWithId(BUILD, id) })),
    });
    await until("all 60 results", () => results.seen.length >= 60);
    const keys = results.seen.map((r) => r.key);
    expect(new Set(keys).size).toBe(60);
    expect(keys).toHaveLength(60);
    expect(new Set(keys)).toEqual(new Set(ids));
    for (const member of members.slice(1)) member.child.kill("SIGTERM");
    for (const member of members.slice(1)) expect(await member.exited).toBe(0);
    await results.consumer.disconnect();
  }, 300_000);

  it("an operator publishes event files and reads the results; the broker crashes and restarts mid-stream and no event is lost or run twice", async () => {
    let calls = 0;
    const server = await model(() => {
      calls += 1;
      return { content: "Done.", delayMs: 100 };
    });
    const config = await configFor("restart", server.url);
    const workspace = await mkdtemp(path.join(home, "ws-"));
    const files = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const file = path.join(home, `restart-event-${i}.json`);
        await writeFile(file, eventWithId(BUILD, `01JXZEPRRESTART${String(i).padStart(10, "0")}`));
        return file;
      }),
    );
    const watcher = startWatcher(config, workspace);
    await until("the watcher to consume", () => watcher.log().includes('"msg":"watching"'));
    const first = await tool(["publish", ...files.slice(0, 10)], config);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("(key 01JXZEPRRESTART0000000000)");
    const completed = () => watcher.log().split('"msg":"the plan completed"').length - 1;
    await until("some results", () => completed() >= 3);
    await broker.kill();
    await broker.restart();
    const second = await tool(["publish", ...files.slice(10)], config);
    expect(second.code).toBe(0);
    const read = await tool(["results", "--count", "20", "--timeout", "240", "--json"], config);
    expect(read.code).toBe(0);
    const keys = read.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { subject: string; type: string }).subject);
    expect(new Set(keys)).toEqual(
      new Set(files.map((_, i) => `01JXZEPRRESTART${String(i).padStart(10, "0")}`)),
    );
    // Nothing ran twice: a run interrupted by the crash may be repeated, its result is not.
    expect(calls).toBeGreaterThanOrEqual(20);
    // No 21st result, before or after the watcher stops: a reader that wants 21 sees all 20,
    // each once, and times out (read while the watcher shuts down, to add little time).
    watcher.child.kill("SIGTERM");
    const [exit, all] = await Promise.all([
      watcher.exited,
      tool(["results", "--count", "21", "--timeout", "15"], config),
    ]);
    expect(exit).toBe(0);
    expect(all.code).toBe(1);
    expect(all.stderr).toContain("20 of 21 results arrived on restart.in.results within 15 s");
    const shown = [
      ...all.stdout.matchAll(/^(\w+) +(01JXZEPRRESTART\d{10}) +build\.success from /gm),
    ];
    expect(shown).toHaveLength(20);
    expect(new Set(shown.map((match) => match[2])).size).toBe(20);
    expect(shown.every((match) => match[1] === "completed")).toBe(true);
    expect(all.stdout.split("  | Done.").length - 1).toBe(20);
  }, 600_000);

  it("an operator lists a dead letter with its reason, replays it once the cause is fixed, and re-runs a handled event on purpose with ledger forget", async () => {
    const server = await model(() => ({ content: "Ran." }));
    // Too small for the event: it is dead-lettered as too_large.
    const config = await configFor("operator", server.url, {
      execution: { max_message_bytes: 1000 },
    });
    const results = await collect("operator.in.results");
    const letters = await collect("operator.in.dlq");
    const workspace = await mkdtemp(path.join(home, "ws-"));
    const id = "01JXZEPROPERATOR000000001";
    const first = startWatcher(config, workspace);
    await until("the watcher to consume", () => first.log().includes('"msg":"watching"'));
    await producer.send({
      topic: "operator.in",
      messages: [
        { key: id, value: eventWithId(BUILD, id), headers: { "x-origin": "ci" } },
        { key: "not-json", value: "{not json" },
      ],
    });
    await until("two dead letters", () => letters.seen.length >= 2);
    expect(results.seen).toHaveLength(0);

    // dlq list: both, with their reason codes and reasons.
    const list = await tool(["dlq", "list", "--json"], config);
    expect(list.code).toBe(0);
    const listed = list.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(listed).toEqual([
      expect.objectContaining({
        ref: "0:0",
        key: id,
        code: "too_large",
        reason: expect.stringMatching(
          /^The message is \d+ bytes, over watcher\.execution\.max_message_bytes \(1000\)/,
        ),
        from: { topic: "operator.in", partition: 0, offset: "0" },
      }),
      expect.objectContaining({ key: "not-json", code: "undecodable" }),
    ]);
    const ref = listed[0]?.["ref"] as string;
    const text = await tool(["dlq", "list"], config);
    expect(text.stdout).toContain(`too_large     ${id}  from operator.in/0@0`);
    expect(text.stderr).toContain("2 dead letters on operator.in.dlq");
    // dlq show: the headers and the value, byte for byte.
    const show = await tool(["dlq", "show", id, "--json"], config);
    expect(show.code).toBe(0);
    const shown = JSON.parse(show.stdout) as { headers: Record<string, string>; value: string };
    expect(shown.value).toBe(eventWithId(BUILD, id));
    expect(shown.headers).toMatchObject({ "x-origin": "ci", "x-xzatoma-dlq-code": "too_large" });
    expect((await tool(["dlq", "show", "7:99"], config)).code).toBe(1);

    // The cause fixed (a limit the event fits), the watcher restarted, the letter replayed.
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    await configFor("operator", server.url, {});
    const second = startWatcher(config, workspace);
    await until("the restarted watcher to consume", () =>
      second.log().includes('"msg":"watching"'),
    );
    const replay = await tool(["dlq", "replay", ref], config);
    expect(replay).toMatchObject({ code: 0 });
    expect(replay.stdout).toBe(`replayed ${ref} to operator.in (key ${id})\n`);
    await until("the replayed event's result", () => results.seen.length >= 1);
    expect(results.seen[0]?.key).toBe(id);
    expect(server.chatRequests).toHaveLength(1);

    // ledger show: the event completed. A second copy is a duplicate: nothing runs.
    const ledgerShow = await tool(["ledger", "show", id, "--json"], config);
    expect(ledgerShow.code).toBe(0);
    expect(JSON.parse(ledgerShow.stdout)).toMatchObject({
      id,
      source: "xzepr.event.receiver.demo-receiver-001",
      entry: { outcome: "completed", delivery: "operator.in/0/2" },
    });
    await producer.send({
      topic: "operator.in",
      messages: [{ key: id, value: eventWithId(BUILD, id) }],
    });
    await until("the duplicate to be skipped", () =>
      second.log().includes('"msg":"skipped an event already handled"'),
    );
    expect(server.chatRequests).toHaveLength(1);

    // ledger forget, then the same event again: it runs again, a second result.
    const forget = await tool(["ledger", "forget", id], config);
    expect(forget.code).toBe(0);
    expect(forget.stdout).toContain(
      `forgot ${id} from xzepr.event.receiver.demo-receiver-001 (was completed)`,
    );
    expect((await tool(["ledger", "show", id], config)).code).toBe(1);
    await producer.send({
      topic: "operator.in",
      messages: [{ key: id, value: eventWithId(BUILD, id) }],
    });
    await until("the second result", () => results.seen.length >= 2);
    expect(results.seen.map((record) => record.key)).toEqual([id, id]);
    expect(server.chatRequests).toHaveLength(2);

    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    await results.consumer.disconnect();
    await letters.consumer.disconnect();
  }, 600_000);

  it("readiness follows the broker: /readyz is 503 broker-unreachable while it is down, 200 again once it is back, /healthz stays 200", async () => {
    const server = await model(() => ({ content: "ok" }));
    const config = await configFor("ready", server.url, { health: { port: 0 } });
    const workspace = await mkdtemp(path.join(home, "ws-"));
    const watcher = startWatcher(config, workspace);
    await until("the health endpoint", () => watcher.log().includes('"msg":"health endpoint"'));
    const health = /"msg":"health endpoint".*?"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(
      watcher.log(),
    )?.[1];
    const status = async (what: string) => {
      const response = await fetch(`${health}/${what}`);
      return { code: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    await until("ready", async () => (await status("readyz")).code === 200);
    await broker.kill();
    try {
      // The lag is asked for every 10 s: the first failure makes the service not ready.
      await until(
        "not ready while the broker is down",
        async () => (await status("readyz")).code === 503,
      );
      const down = await status("readyz");
      expect(down.body).toMatchObject({ live: true, ready: false, state: "broker-unreachable" });
      expect(String(down.body["brokerError"])).not.toBe("");
      expect((await status("healthz")).code).toBe(200);
    } finally {
      await broker.restart();
    }
    await until("ready again", async () => (await status("readyz")).code === 200);
    expect((await status("readyz")).body).toMatchObject({ ready: true, state: "consuming" });
    expect(watcher.log()).toContain('"msg":"the broker does not answer"');
    watcher.child.kill("SIGTERM");
    expect(await watcher.exited).toBe(0);
  }, 600_000);
});
