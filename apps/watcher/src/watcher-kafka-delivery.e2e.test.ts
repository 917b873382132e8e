// Delivery of `xzatoma-watcher run` on a real Kafka broker (started once for this file by
// tools/kafka/start.sh) with a scripted model that answers at once: a backlog with duplicates,
// filtered messages and XZepr notices handled exactly once across a kill -9; a restart with
// the same instance identity fencing what its predecessor left open; SIGTERM while the broker
// is away. Waits are for conditions with deadlines, never timings; the SIGTERM test's deadline
// is the documented bound with room to spare.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startTestBroker, type TestBroker } from "@xzatoma/scripted-servers/kafka";
import { startScriptedOpenAI, type ScriptedOpenAI } from "@xzatoma/scripted-servers/openai";
import { Kafka, logLevel, type Consumer, type Producer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/xzatoma-watcher.js", import.meta.url));
const fixture = (name: string) =>
  JSON.parse(
    readFileSync(
      new URL(`../../../packages/xzepr/src/__fixtures__/${name}`, import.meta.url),
      "utf8",
    ),
  ) as Record<string, unknown>;
const BUILD = fixture("build_success_event.json");
const NOTICE = fixture("receiver_created_event.json");
const DEADLINE = 240_000;

let broker: TestBroker;
let kafka: Kafka;
let producer: Producer;
let server: ScriptedOpenAI;
let home: string;
const children = new Set<ChildProcess>();
const consumers: Consumer[] = [];

beforeAll(async () => {
  broker = await startTestBroker();
  kafka = new Kafka({ clientId: "e2e", brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  producer = kafka.producer();
  await producer.connect();
  server = await startScriptedOpenAI({
    scenario: () => ({ content: "Verified." }),
    apiKey: "sk-test",
    models: ["scripted-1"],
  });
  home = await mkdtemp(path.join(os.tmpdir(), "xz-watcher-delivery-"));
}, 300_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  for (const consumer of consumers) await consumer.disconnect().catch(() => undefined);
  await producer?.disconnect().catch(() => undefined);
  await server?.close();
  await broker?.stop();
  await rm(home, { recursive: true, force: true });
}, 120_000);

const event = (base: Record<string, unknown>, id: string, changes: object = {}) =>
  JSON.stringify({ ...base, id, ...changes });

const idOf = (prefix: string, i: number) =>
  `${prefix}${String(i).padStart(26 - prefix.length, "0")}`;

/** A config file for one test: its own topics, group and data directory. */
async function configFor(name: string, kafkaSection: object, execution: object = {}) {
  const file = path.join(home, `${name}.json`);
  await writeFile(
    file,
    JSON.stringify({
      provider: { type: "openai", openai: { base_url: server.url, model: "scripted-1" } },
      agent: { terminal: { sandbox: false } },
      persistence: { data_dir: path.join(home, name) },
      watcher: {
        kafka: {
          brokers: broker.bootstrap,
          topic: `${name}.in`,
          group_id: `${name}-group`,
          session_timeout_ms: 6000,
          ...kafkaSection,
        },
        execution,
        logging: { level: "info" },
      },
    }),
  );
  return file;
}

interface Running {
  readonly child: ChildProcess;
  readonly log: () => string;
  readonly exited: Promise<number | null>;
  /** True once the process has exited. */
  readonly gone: () => boolean;
}

function startWatcher(config: string): Running {
  const child = spawn(process.execPath, [BIN, "run", "--config", config, "--workspace", home], {
    env: { ...process.env, OPENAI_API_KEY: "sk-test", XZATOMA_HOME: path.dirname(config) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-200_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let gone = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      gone = true;
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, log: () => log, exited, gone: () => gone };
}

async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  watcher?: Running,
): Promise<void> {
  const end = Date.now() + DEADLINE;
  while (!(await check())) {
    if (watcher?.gone()) {
      throw new Error(
        `The watcher exited while waiting for ${what}; its log ends:\n${watcher.log().slice(-4000)}`,
      );
    }
    if (Date.now() > end) {
      throw new Error(
        `Timed out waiting for ${what}${watcher ? `; the watcher's log ends:\n${watcher.log().slice(-4000)}` : ""}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Counts, per key, the records of `topic` a `read_committed` reader sees. */
async function committedKeys(topic: string): Promise<Map<string, number>> {
  const keys = new Map<string, number>();
  const consumer = kafka.consumer({ groupId: `reader-${topic}-${Date.now()}` });
  consumers.push(consumer);
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const key = message.key?.toString() ?? "";
      keys.set(key, (keys.get(key) ?? 0) + 1);
    },
  });
  return keys;
}

async function createTopics(names: readonly string[], partitions: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({
      topics: names.map((topic) => ({ topic, numPartitions: partitions })),
      waitForLeaders: true,
    });
  } finally {
    await admin.disconnect();
  }
}

/** Messages of `topic` the group has not committed yet. */
async function lag(groupId: string, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const ends = await admin.fetchTopicOffsets(topic);
    let behind = 0;
    for (const end of ends) {
      const offset = Number(
        committed?.partitions.find((p) => p.partition === end.partition)?.offset ?? -1,
      );
      behind += Number(end.high) - (offset < 0 ? Number(end.low) : offset);
    }
    return behind;
  } finally {
    await admin.disconnect();
  }
}

async function send(topic: string, messages: { key: string; value: string }[]): Promise<void> {
  for (let start = 0; start < messages.length; start += 500) {
    await producer.send({ topic, messages: messages.slice(start, start + 500) });
  }
}

describe("xzatoma-watcher run: delivery on a Kafka broker", () => {
  it("works through a backlog with duplicates, filtered messages and notices exactly once, across a kill -9 and a restart", async () => {
    const name = "backlog";
    const unique = 1500;
    await createTopics([`${name}.in`, `${name}.in.results`, `${name}.in.dlq`], 3);
    const runs = Array.from({ length: unique }, (_, i) => idOf("01JXBACKLOGRUN", i));
    const messages = [
      ...runs.map((id) => ({ key: id, value: event(BUILD, id) })),
      // Second copies of a third of the events: duplicates the ledger turns away.
      ...runs.filter((_, i) => i % 3 === 0).map((id) => ({ key: id, value: event(BUILD, id) })),
      // Failed builds, which success_only filters.
      ...Array.from({ length: 1000 }, (_, i) => {
        const id = idOf("01JXBACKLOGFLT", i);
        return { key: id, value: event(BUILD, id, { success: false }) };
      }),
      // XZepr's own notices: skipped, not dead-lettered.
      ...Array.from({ length: 200 }, (_, i) => {
        const id = idOf("01JXBACKLOGNTC", i);
        return { key: id, value: event(NOTICE, id) };
      }),
    ];
    await send(`${name}.in`, messages);
    const results = await committedKeys(`${name}.in.results`);
    const config = await configFor(
      name,
      { num_partitions: 3, instance_id: "backlog-0" },
      { max_concurrent_executions: 3 },
    );

    const first = startWatcher(config);
    await until("the first results", () => results.size >= 200, first);
    first.child.kill("SIGKILL");
    await first.exited;
    const second = startWatcher(config);
    await until(`${unique} results`, () => results.size >= unique, second);
    await until(
      "the whole backlog committed",
      async () => (await lag(`${name}-group`, `${name}.in`)) === 0,
    );

    expect([...results.keys()].sort()).toEqual([...runs].sort());
    expect([...results.values()].filter((count) => count !== 1)).toEqual([]);
    // Nothing was dead-lettered: the dead-letter topic holds no record at all.
    const admin = kafka.admin();
    await admin.connect();
    const dlq = await admin.fetchTopicOffsets(`${name}.in.dlq`);
    await admin.disconnect();
    expect(dlq.map((partition) => partition.high)).toEqual(["0", "0", "0"]);
    expect(second.log()).not.toContain('"msg":"dead-lettered a message"');

    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    // A static member that stops on SIGTERM leaves: its partitions are free at once.
    const groups = kafka.admin();
    await groups.connect();
    const described = await groups.describeGroups([`${name}-group`]);
    await groups.disconnect();
    expect(described.groups[0]?.members).toEqual([]);
  }, 600_000);

  it("a restart with the same instance_id fences the transaction its killed predecessor left open: read_committed readers see new results at once", async () => {
    const name = "fence";
    await createTopics([`${name}.in`, `${name}.in.results`, `${name}.in.dlq`], 1);
    // A session far longer than the test's deadline: only static membership gives the
    // partition back to the restart in time.
    const config = await configFor(name, { instance_id: "fence-0", session_timeout_ms: 300_000 });
    const results = await committedKeys(`${name}.in.results`);
    const before = idOf("01JXFENCEBEFORE", 0);
    await send(`${name}.in`, [{ key: before, value: event(BUILD, before) }]);
    const first = startWatcher(config);
    await until("the first result", () => results.has(before), first);
    first.child.kill("SIGKILL");
    await first.exited;

    // What the killed process left: a transaction of its transactional id, open on the results
    // topic, that the broker would abort only after ten minutes. Until then a read_committed
    // reader of that partition sees nothing after it.
    const orphan = kafka.producer({
      transactionalId: `${name}-group-fence-0`,
      maxInFlightRequests: 1,
      idempotent: true,
      transactionTimeout: 600_000,
    });
    await orphan.connect();
    const transaction = await orphan.transaction();
    await transaction.send({
      topic: `${name}.in.results`,
      messages: [{ key: "orphan", value: "left open by a killed process" }],
    });
    await orphan.disconnect();

    const after = idOf("01JXFENCEAFTER", 0);
    await send(`${name}.in`, [{ key: after, value: event(BUILD, after) }]);
    const second = startWatcher(config);
    await until("the result after the restart", () => results.has(after), second);
    expect(results.has("orphan")).toBe(false);
    expect(results.get(before)).toBe(1);
    expect(results.get(after)).toBe(1);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 600_000);

  // Last: it stops the broker.
  it("exits 0 within the grace and the documented 15 s after SIGTERM while the broker is stopped", async () => {
    const name = "away";
    const graceSecs = 5;
    const config = await configFor(
      name,
      { instance_id: "away-0" },
      { shutdown_grace_secs: graceSecs },
    );
    await createTopics([`${name}.in`, `${name}.in.results`, `${name}.in.dlq`], 1);
    const results = await committedKeys(`${name}.in.results`);
    const id = idOf("01JXAWAY", 0);
    const watcher = startWatcher(config);
    await until("watching", () => watcher.log().includes('"msg":"watching"'));
    await send(`${name}.in`, [{ key: id, value: event(BUILD, id) }]);
    await until("the result", () => results.has(id));
    for (const consumer of consumers.splice(0)) await consumer.disconnect().catch(() => undefined);

    await broker.kill();
    watcher.child.kill("SIGTERM");
    const bound = (graceSecs + 15 + 30) * 1000;
    const code = await Promise.race([
      watcher.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve("still running"), bound)),
    ]);
    expect(code).toBe(0);
    expect(watcher.log()).toContain('"msg":"stopped"');
  }, 300_000);
});
