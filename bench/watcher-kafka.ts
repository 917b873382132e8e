// The watcher service on a real Kafka broker (tools/kafka/start.sh on free ports), as an
// operator runs it: `xzatoma-watcher run` processes, each event's plan run by the agent
// runtime against a scripted OpenAI-compatible model on 127.0.0.1. Measures:
//   1. produce-to-result latency, one event at a time, model answering at once (p50, p99);
//   2. throughput of 1, 2 and 3 instances in one group on a 6-partition topic, with the
//      model answering at once and with a model that takes 100 ms per reply;
//   3. memory of one instance working through a 10,000-event backlog (RSS sampled from
//      /proc while it runs; target: flat, under 150 MiB);
//   4. ("kinds") events/s of 1, 2 and 3 instances (each with its own instance_id) on a
//      6-partition topic for each kind of message: full runs (model at once, until every
//      result is committed), second copies of those events (duplicates), and failed builds that
//      success_only filters (both until the group's lag is 0); the instances' CPU time per
//      message of each kind (from /proc, less at the mercy of a busy machine than events/s); and
//      each instance's peak RSS.
// Results are read with read_committed, as the watcher writes them in transactions.
// Run: node bench/watcher-kafka.ts [latency|throughput|backlog|kinds ...]
// BENCH_KIND_RUNS and BENCH_KIND_FILTERED size the "kinds" phase (default 2000 and 5000);
// BENCH_KIND_INSTANCES lists its group sizes (default "1,2,3"); BENCH_KIND_WARMUP full runs per
// instance (default 300) go first, uncounted, so each instance's JIT has compiled the run's
// path, as in a service that has been up for a while (each process warms up on its own: without
// this, every added instance adds its warm-up to the CPU per message).
// WATCHER_NODE_ARGS="--max-semi-space-size=4" starts the watcher processes with those Node options.
// BENCH_WATCHER_CPUS=0.3 limits each watcher process to that many CPUs (a cgroup of its own with
// a CFS quota, as a pod's CPU limit; root only): on a machine with fewer cores than instances
// plus the broker, it shows how throughput grows with replicas that each get the same share.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type * as KafkaJs from "kafkajs";
import { startTestBroker } from "../tools/scripted-servers/kafka-broker.ts";
import { startScriptedOpenAI } from "../tools/scripted-servers/openai-server.ts";
import { limitCpu } from "./cpu-limit.ts";
import { median, ROOT } from "./measure.ts";

const requireFromXzepr = createRequire(path.join(ROOT, "packages", "xzepr", "package.json"));
const { Kafka, logLevel } = requireFromXzepr("kafkajs") as typeof KafkaJs;
const BIN = path.join(ROOT, "apps", "watcher", "bin", "xzatoma-watcher.js");
const FIXTURE = JSON.parse(
  readFileSync(path.join(ROOT, "packages/xzepr/src/__fixtures__/build_success_event.json"), "utf8"),
) as Record<string, unknown>;

// Node options for the watcher processes only (heap sizing a deployment may set).
const NODE_ARGS = (process.env["WATCHER_NODE_ARGS"] ?? "").split(" ").filter(Boolean);
const LATENCY_EVENTS = 200;
const THROUGHPUT_EVENTS = 600;
const BACKLOG_EVENTS = 10_000;
const KIND_RUNS = Number(process.env["BENCH_KIND_RUNS"] ?? 2000);
const KIND_FILTERED = Number(process.env["BENCH_KIND_FILTERED"] ?? 5000);
const KIND_INSTANCES = (process.env["BENCH_KIND_INSTANCES"] ?? "1,2,3").split(",").map(Number);
const KIND_WARMUP = Number(process.env["BENCH_KIND_WARMUP"] ?? 300);
const CPUS = process.env["BENCH_WATCHER_CPUS"] ? Number(process.env["BENCH_WATCHER_CPUS"]) : null;
const cpuNote = CPUS === null ? "" : `, each limited to ${CPUS} CPUs`;

const phases = process.argv.slice(2);
const wanted = (name: string) => phases.length === 0 || phases.includes(name);

const home = mkdtempSync(path.join(os.tmpdir(), "xz-bench-watcher-kafka-"));
const broker = await startTestBroker();
const kafka = new Kafka({
  clientId: "bench",
  brokers: [broker.bootstrap],
  logLevel: logLevel.NOTHING,
});
const producer = kafka.producer();
await producer.connect();
const instant = await startScriptedOpenAI({ scenario: () => ({ content: "ok" }) });
const slow = await startScriptedOpenAI({ scenario: () => ({ content: "ok", delayMs: 100 }) });
const children = new Set<ChildProcess>();

function eventValue(id: string, changes: object = {}): string {
  return JSON.stringify({ ...FIXTURE, id, ...changes });
}

function idOf(prefix: string, i: number): string {
  return `${prefix}${String(i).padStart(26 - prefix.length, "0")}`;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function configFor(name: string, modelUrl: string, partitions: number, concurrency = 1): string {
  const file = path.join(home, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      provider: { type: "openai", openai: { base_url: modelUrl, model: "scripted" } },
      agent: { terminal: { sandbox: false } },
      persistence: { data_dir: path.join(home, name) },
      watcher: {
        kafka: {
          brokers: broker.bootstrap,
          topic: `${name}.in`,
          group_id: `${name}-group`,
          num_partitions: partitions,
        },
        execution: { max_concurrent_executions: concurrency },
        logging: { level: "info" },
      },
    }),
  );
  return file;
}

interface Instance {
  readonly child: ChildProcess;
  readonly watching: Promise<void>;
  readonly exited: Promise<void>;
}

function startInstance(config: string, instanceId?: string): Instance {
  const child = spawn(
    process.execPath,
    [...NODE_ARGS, BIN, "run", "--config", config, "--workspace", home],
    {
      env: {
        ...process.env,
        OPENAI_API_KEY: "sk-bench",
        XZATOMA_HOME: path.dirname(config),
        // Each instance its own identity and its own history (and so ledger), as each replica
        // of a deployment has its own volume: instances sharing one SQLite file would wait on
        // each other's locks, which no deployment does.
        ...(instanceId
          ? {
              XZATOMA_WATCHER_KAFKA_INSTANCE_ID: instanceId,
              XZATOMA_PERSISTENCE_DATA_DIR: path.join(home, instanceId),
            }
          : {}),
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  children.add(child);
  const release = CPUS === null ? () => undefined : limitCpu(child.pid!, CPUS, instanceId ?? "one");
  // The log is searched for "watching" until it appears; after that only its last 4 KiB are
  // kept, for the error when the process exits. (Searching a growing copy of the whole log for
  // every chunk cost this process enough CPU to hold up the watcher's writes to the pipe.)
  let log = "";
  let started = false;
  const watching = new Promise<void>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      if (!started) {
        // The line may be split across chunks: look at the end of the last one too.
        started = (log.slice(-64) + text).includes('"msg":"watching"');
        if (started) resolve();
      }
      log = (log + text).slice(-4096);
    });
    child.once("exit", (code) => reject(new Error(`watcher exited ${code}: ${log.slice(-2000)}`)));
  });
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      children.delete(child);
      release();
      resolve();
    }),
  );
  watching.catch(() => undefined);
  return { child, watching, exited };
}

async function stopInstances(instances: readonly Instance[]): Promise<void> {
  for (const instance of instances) instance.child.kill("SIGTERM");
  await Promise.all(instances.map((instance) => instance.exited));
}

/** Waits until the group has `members` members and is stable. */
async function groupStable(groupId: string, members: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (let i = 0; i < 600; i += 1) {
      const { groups } = await admin.describeGroups([groupId]);
      const group = groups[0];
      if (group?.state === "Stable" && group.members.length === members) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`group ${groupId} did not settle with ${members} members`);
  } finally {
    await admin.disconnect();
  }
}

/** Reads result keys from `topic` as they are committed; `arrivals` maps key to ms. */
async function readResults(topic: string) {
  const arrivals = new Map<string, number>();
  let duplicates = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] }).catch(() => false);
  await admin.disconnect();
  const consumer = kafka.consumer({ groupId: `bench-reader-${topic}-${Date.now()}` });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const key = message.key?.toString() ?? "";
      if (arrivals.has(key)) duplicates += 1;
      else arrivals.set(key, performance.now());
      for (const waiter of [...waiters]) {
        if (arrivals.size >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    },
  });
  return {
    arrivals,
    duplicates: () => duplicates,
    until(count: number): Promise<void> {
      if (arrivals.size >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: () => consumer.disconnect(),
  };
}

async function publish(topic: string, ids: readonly string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += 500) {
    await producer.send({
      topic,
      messages: ids.slice(start, start + 500).map((id) => ({ key: id, value: eventValue(id) })),
    });
  }
}

/** Resolves once `groupId` has committed every message of `topic`. */
async function lagZero(groupId: string, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (;;) {
      const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
      const ends = await admin.fetchTopicOffsets(topic);
      let behind = 0;
      for (const end of ends) {
        const offset = Number(
          committed?.partitions.find((p) => p.partition === end.partition)?.offset ?? -1,
        );
        behind += Number(end.high) - (offset < 0 ? Number(end.low) : offset);
      }
      if (behind <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await admin.disconnect();
  }
}

function peakRssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const CLOCK_TICKS =
  Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** CPU time (user and system) the process has used so far, in ms. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kib / 1024;
  } catch {
    return 0;
  }
}

try {
  if (wanted("latency")) {
    const config = configFor("latency", instant.url, 1);
    const results = await readResults("latency.in.results");
    const instance = startInstance(config);
    await instance.watching;
    await groupStable("latency-group", 1);
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_EVENTS + 20; i += 1) {
      const id = idOf("01JXZEPRLAT", i);
      const sent = performance.now();
      await producer.send({ topic: "latency.in", messages: [{ key: id, value: eventValue(id) }] });
      await results.until(i + 1);
      if (i >= 20) latencies.push(results.arrivals.get(id)! - sent);
    }
    await stopInstances([instance]);
    await results.close();
    console.log(
      `produce-to-result latency, one event at a time, model answering at once (${LATENCY_EVENTS} events after 20 warm-up): p50 ${median(latencies).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );
  }

  if (wanted("throughput")) {
    for (const [model, url] of [
      ["at once", instant.url],
      ["100 ms per reply", slow.url],
    ] as const) {
      const line: string[] = [];
      for (const [members, concurrency] of [
        [1, 1],
        [2, 1],
        [3, 1],
        [1, 6],
      ] as const) {
        const name = `tp-${model === "at once" ? "fast" : "slow"}-${members}-${concurrency}`;
        const config = configFor(name, url, 6, concurrency);
        const results = await readResults(`${name}.in.results`);
        const instances = Array.from({ length: members }, () => startInstance(config));
        await Promise.all(instances.map((instance) => instance.watching));
        await groupStable(`${name}-group`, members);
        const ids = Array.from({ length: THROUGHPUT_EVENTS }, (_, i) => idOf("01JXZEPRTP", i));
        const started = performance.now();
        await publish(`${name}.in`, ids);
        await results.until(THROUGHPUT_EVENTS);
        const seconds = (performance.now() - started) / 1000;
        const duplicates = results.duplicates();
        await stopInstances(instances);
        await results.close();
        line.push(
          `${members} instance${members > 1 ? "s" : ""}${concurrency > 1 ? ` with max_concurrent_executions ${concurrency}` : ""}: ${(THROUGHPUT_EVENTS / seconds).toFixed(1)} events/s${duplicates ? ` (${duplicates} duplicates!)` : ""}`,
        );
      }
      console.log(
        `throughput, ${THROUGHPUT_EVENTS} events on 6 partitions, model ${model}, ${os.cpus().length} cores: ${line.join("; ")}`,
      );
    }
  }

  if (wanted("kinds")) {
    for (const members of KIND_INSTANCES) {
      const name = `kinds-${members}`;
      const config = configFor(name, instant.url, 6, 6);
      const results = await readResults(`${name}.in.results`);
      const instances = Array.from({ length: members }, (_, i) =>
        startInstance(config, `${name}-${i}`),
      );
      await Promise.all(instances.map((instance) => instance.watching));
      await groupStable(`${name}-group`, members);
      const warmup = KIND_WARMUP * members;
      if (warmup > 0) {
        await publish(
          `${name}.in`,
          Array.from({ length: warmup }, (_, i) => idOf("01JXZEPRWARM", i)),
        );
        await results.until(warmup);
        await lagZero(`${name}-group`, `${name}.in`);
      }
      const ids = Array.from({ length: KIND_RUNS }, (_, i) => idOf("01JXZEPRKIND", i));
      // The instances' CPU time per message of each kind: less at the mercy of a busy machine
      // than events/s.
      const cpu = () => instances.reduce((sum, instance) => sum + cpuMs(instance.child.pid!), 0);
      let cpuAt = cpu();
      const cpuPer = (count: number) => {
        const now = cpu();
        const per = (now - cpuAt) / count;
        cpuAt = now;
        return per.toFixed(2);
      };
      let started = performance.now();
      await publish(`${name}.in`, ids);
      await results.until(warmup + KIND_RUNS);
      await lagZero(`${name}-group`, `${name}.in`);
      const runs = KIND_RUNS / ((performance.now() - started) / 1000);
      const runsCpu = cpuPer(KIND_RUNS);
      started = performance.now();
      await publish(`${name}.in`, ids);
      await lagZero(`${name}-group`, `${name}.in`);
      const duplicates = KIND_RUNS / ((performance.now() - started) / 1000);
      const duplicatesCpu = cpuPer(KIND_RUNS);
      started = performance.now();
      for (let start = 0; start < KIND_FILTERED; start += 500) {
        await producer.send({
          topic: `${name}.in`,
          messages: Array.from({ length: Math.min(500, KIND_FILTERED - start) }, (_, i) => {
            const id = idOf("01JXZEPRFILT", start + i);
            return { key: id, value: eventValue(id, { success: false }) };
          }),
        });
      }
      await lagZero(`${name}-group`, `${name}.in`);
      const filtered = KIND_FILTERED / ((performance.now() - started) / 1000);
      const filteredCpu = cpuPer(KIND_FILTERED);
      const peaks = instances.map((instance) => peakRssMiB(instance.child.pid!).toFixed(0));
      const twice = results.duplicates();
      await stopInstances(instances);
      await results.close();
      console.log(
        `${members} instance${members > 1 ? "s" : ""} (6 partitions, max_concurrent_executions 6, model at once${cpuNote}, after ${KIND_WARMUP} full runs per instance): full runs ${runs.toFixed(0)} events/s (${KIND_RUNS}), duplicates ${duplicates.toFixed(0)}/s (${KIND_RUNS}), filtered ${filtered.toFixed(0)}/s (${KIND_FILTERED}); watcher CPU per message ${runsCpu} ms (full run), ${duplicatesCpu} ms (duplicate), ${filteredCpu} ms (filtered); peak RSS ${peaks.join(", ")} MiB${twice ? `; ${twice} results twice!` : ""}`,
      );
    }
  }

  if (wanted("backlog")) {
    const config = configFor("backlog", instant.url, 1);
    const ids = Array.from({ length: BACKLOG_EVENTS }, (_, i) => idOf("01JXZEPRBL", i));
    // The backlog is there before the watcher starts, so the topic is created here.
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      topics: [{ topic: "backlog.in", numPartitions: 1 }],
      waitForLeaders: true,
    });
    await admin.disconnect();
    await publish("backlog.in", ids);
    const results = await readResults("backlog.in.results");
    const started = performance.now();
    const instance = startInstance(config);
    const pid = instance.child.pid!;
    const samples: { done: number; rss: number }[] = [];
    const timer = setInterval(
      () => samples.push({ done: results.arrivals.size, rss: rssMiB(pid) }),
      250,
    );
    await results.until(BACKLOG_EVENTS);
    clearInterval(timer);
    const seconds = (performance.now() - started) / 1000;
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    await stopInstances([instance]);
    await results.close();
    const at = (fraction: number) => {
      const target = BACKLOG_EVENTS * fraction;
      const sample = samples.find((s) => s.done >= target) ?? samples.at(-1)!;
      return `${Math.round(fraction * 100)}% ${sample.rss.toFixed(0)}`;
    };
    console.log(
      `backlog of ${BACKLOG_EVENTS} events, one instance${cpuNote}${NODE_ARGS.length > 0 ? ` (node ${NODE_ARGS.join(" ")})` : ""}, agent runtime per event, model at once: ${seconds.toFixed(0)} s (${(BACKLOG_EVENTS / seconds).toFixed(0)} events/s); RSS MiB at ${[0.1, 0.25, 0.5, 0.75, 1].map(at).join(", ")}; peak (VmHWM) ${hwm.toFixed(0)} MiB; ${results.duplicates()} duplicates`,
    );
  }
} finally {
  for (const child of children) child.kill("SIGKILL");
  await producer.disconnect();
  await instant.close();
  await slow.close();
  await broker.stop();
  rmSync(home, { recursive: true, force: true });
}
