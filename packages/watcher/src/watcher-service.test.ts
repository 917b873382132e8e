import { readFileSync } from "node:fs";
import { createMemoryTransport, type MemoryTransport, type StoredMessage } from "@xzatoma/xzepr";
import { describe, expect, it, vi } from "vitest";
import { createMemoryLedger, ledgerKeyOf, type EventLedger } from "./event-ledger.js";
import type { ExecutionReport, ExecutionRequest, PlanExecutor } from "./plan-executor.js";
import { watcherConfigSchema, watcherTopics, type WatcherConfig } from "@xzatoma/runtime/sections";
import { createWatcherLogger } from "./watcher-logger.js";
import { createWatcherService, type WatcherService } from "./watcher-service.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../../xzepr/src/__fixtures__/${name}`, import.meta.url), "utf8");
const BUILD = fixture("build_success_event.json");
const DEPLOY = fixture("deploy_success_event.json");

const decoder = new TextDecoder();
const text = (message: StoredMessage) => (message.value ? decoder.decode(message.value) : "");
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- results are read as loose JSON
type Loose = Record<string, any>;
const json = (message: StoredMessage) => JSON.parse(text(message)) as Loose;

interface Harness {
  readonly transport: MemoryTransport;
  readonly service: WatcherService;
  readonly config: WatcherConfig;
  readonly requests: ExecutionRequest[];
  readonly logs: string[];
  publish(
    value: string | Uint8Array,
    key?: string,
    headers?: Record<string, string>,
  ): Promise<void>;
  /** Waits until every published input message is committed. */
  settle(): Promise<void>;
  output(): StoredMessage[];
  deadLetters(): StoredMessage[];
}

const completed = (request: ExecutionRequest): ExecutionReport => ({
  stopReason: "completed",
  text: `done: ${request.title}`,
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
  turns: 2,
});

async function start(
  section: Record<string, unknown>,
  executor: (request: ExecutionRequest, signal: AbortSignal) => Promise<ExecutionReport> = async (
    request,
  ) => completed(request),
  ledger: EventLedger = createMemoryLedger(),
  extra: { readonly dryRun?: boolean } = {},
): Promise<Harness> {
  const config = watcherConfigSchema.parse({
    ...section,
    execution: { retry_backoff_ms: 0, ...(section["execution"] as object | undefined) },
  });
  const topics = watcherTopics(config);
  const transport = createMemoryTransport({ redeliveryDelayMs: 1 });
  const requests: ExecutionRequest[] = [];
  const logs: string[] = [];
  const recording: PlanExecutor = (request, signal) => {
    requests.push(request);
    return executor(request, signal);
  };
  const service = createWatcherService({
    config,
    transport,
    executor: recording,
    ledger,
    instance: "xzatoma-watcher://test/1",
    logger: createWatcherLogger({ level: "debug", json: true, write: (line) => logs.push(line) }),
    ...extra,
  });
  await service.start();
  return {
    transport,
    service,
    config,
    requests,
    logs,
    publish: (value, key, headers) =>
      transport.publish({
        topic: topics.input,
        records: [{ value, ...(key ? { key } : {}), ...(headers ? { headers } : {}) }],
      }),
    settle: () => transport.drained(),
    output: () => [...transport.messages(topics.output)],
    deadLetters: () => [...transport.messages(topics.deadLetter)],
  };
}

describe("the xzepr watcher", () => {
  it("runs each fixture event's plan once and publishes a CloudEvent result keyed by the event id", async () => {
    const h = await start({ filters: { event_types: ["build.success", "deployment.success"] } });
    await h.publish(BUILD, "01JXZEPR0BUILD0DEMO000001");
    await h.publish(DEPLOY, "01JXZEPR0DEPLOY0DEMO00001");
    await h.settle();
    expect(h.requests.map((r) => r.trigger.type)).toEqual(["build.success", "deployment.success"]);
    // The plan is run as a plan (task-list dialect), not as its JSON text.
    expect(h.requests[0]!.prompt).not.toContain('"tasks"');
    expect(h.requests[0]!.prompt).toContain("build verification report");
    expect(h.requests[0]!.maxTurns).toBe(5);
    const results = h.output();
    expect(results.map((m) => m.key)).toEqual([
      "01JXZEPR0BUILD0DEMO000001",
      "01JXZEPR0DEPLOY0DEMO00001",
    ]);
    const first = json(results[0]!);
    expect(first).toMatchObject({
      specversion: "1.0",
      source: "xzatoma-watcher://test/1",
      subject: "01JXZEPR0BUILD0DEMO000001",
    });
    expect(String(first["type"])).toMatch(/completed$/);
    expect(first["traceparent"]).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(first["data"]).toMatchObject({
      status: "completed",
      answer: "done: event 01JXZEPR0BUILD0DEMO000001: build.success",
      stopReason: "completed",
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      trigger: {
        id: "01JXZEPR0BUILD0DEMO000001",
        source: "xzepr.event.receiver.demo-receiver-001",
        type: "build.success",
      },
    });
    expect(h.service.status().counts).toMatchObject({ consumed: 2, executed: 2 });
    await h.service.stop(1000);
  });

  it("skips what the filters turn away, publishing nothing and keeping going", async () => {
    const h = await start({ filters: { event_types: ["deployment.success"] } });
    await h.publish(BUILD);
    await h.publish(DEPLOY);
    await h.settle();
    expect(h.requests.map((r) => r.trigger.type)).toEqual(["deployment.success"]);
    expect(h.output()).toHaveLength(1);
    expect(h.service.status().counts).toMatchObject({ filtered: 1, executed: 1 });
    const failed = JSON.parse(DEPLOY) as Record<string, unknown>;
    await h.publish(JSON.stringify({ ...failed, id: "01JXZEPRFAILED00000000000", success: false }));
    await h.settle();
    expect(h.requests).toHaveLength(1);
    await h.service.stop(1000);
  });

  it("runs an event published twice once, and yields one result", async () => {
    const h = await start({});
    await h.publish(BUILD, "a");
    await h.publish(BUILD, "a");
    await h.publish(BUILD, "b");
    await h.settle();
    expect(h.requests).toHaveLength(1);
    expect(h.output()).toHaveLength(1);
    expect(h.service.status().counts).toMatchObject({ executed: 1, duplicate: 2 });
    await h.service.stop(1000);
  });

  it("sends what it cannot use to the dead-letter topic with the reason, and keeps running", async () => {
    const h = await start({});
    const event = JSON.parse(BUILD) as Loose;
    const withPlan = (plan: unknown, id: string) =>
      JSON.stringify({
        ...event,
        id,
        data: { ...event.data, events: [{ ...event.data.events[0], payload: { plan } }] },
      });
    await h.publish("{not json", "bad-json");
    await h.publish(JSON.stringify({ hello: "world" }), "wrong-envelope");
    await h.publish("", "empty");
    await h.publish(withPlan({ name: "no steps" }, "01JXZEPRNOSTEPS0000000000"), "invalid-plan");
    await h.publish(new Uint8Array(10 * 1024 * 1024).fill(0x20), "huge");
    await h.publish(BUILD, "good");
    await h.settle();
    const letters = h.deadLetters();
    expect(letters.map((m) => m.key)).toEqual([
      "bad-json",
      "wrong-envelope",
      "empty",
      "invalid-plan",
      "huge",
    ]);
    const reasons = letters.map(
      (m) => Object.entries(m.headers).find(([name]) => /reason/.test(name))?.[1] ?? "",
    );
    expect(reasons[0]).toMatch(/JSON/);
    expect(reasons[3]).toMatch(/plan is not valid/i);
    expect(reasons[4]).toMatch(/10485760 bytes, over watcher\.execution\.max_message_bytes/);
    // The original bytes are kept for a person to look at.
    expect(text(letters[0]!)).toBe("{not json");
    // An oversized value is cut, saying how large it was.
    expect(letters[4]!.value?.byteLength).toBe(65_536);
    expect(letters[4]!.headers["x-xzatoma-dlq-original-bytes"]).toBe("10485760");
    expect(h.requests).toHaveLength(1);
    expect(h.output()).toHaveLength(1);
    await h.service.stop(1000);
  });

  it("stops a run at execution_timeout_secs and reports it failed with stop reason timeout", async () => {
    const h = await start(
      { execution: { execution_timeout_secs: 1 } },
      (_request, signal) =>
        new Promise((resolve) =>
          signal.addEventListener("abort", () => resolve({ stopReason: "aborted", text: "" })),
        ),
    );
    await h.publish(BUILD);
    await h.settle();
    const result = json(h.output()[0]!);
    expect(String(result["type"])).toMatch(/failed$/);
    expect(result["data"]).toMatchObject({ status: "failed", stopReason: "timeout" });
    expect(result["data"].error.message).toMatch(/execution_timeout_secs \(1 s\)/);
    await h.service.stop(1000);
  });

  it("grants a plan's allow_dangerous only when the configuration allows it", async () => {
    const event = JSON.parse(BUILD) as Loose;
    const plan = JSON.parse(event.data.events[0].payload.plan as string) as Record<string, unknown>;
    const dangerous = JSON.stringify({
      ...event,
      data: {
        ...event.data,
        events: [
          { ...event.data.events[0], payload: { plan: { ...plan, allow_dangerous: true } } },
        ],
      },
    });
    const closed = await start({});
    await closed.publish(dangerous);
    await closed.settle();
    expect(closed.requests[0]!.allowDangerous).toBe(false);
    await closed.service.stop(1000);
    const open = await start({ execution: { allow_dangerous: true } });
    await open.publish(dangerous);
    await open.publish(BUILD.replace("01JXZEPR0BUILD0DEMO000001", "01JXZEPR0BUILD0DEMO000002"));
    await open.settle();
    expect(open.requests.map((r) => r.allowDangerous)).toEqual([true, false]);
    await open.service.stop(1000);
  });

  it("retries a run that fails with an error, then reports the last failure", async () => {
    let calls = 0;
    const h = await start({ execution: { max_retries: 2 } }, async (request) => {
      calls += 1;
      if (calls < 3) return { stopReason: "error", text: "", error: "model server unreachable" };
      return completed(request);
    });
    await h.publish(BUILD);
    await h.settle();
    expect(calls).toBe(3);
    expect(json(h.output()[0]!)["data"]).toMatchObject({ status: "completed" });

    const failing = await start({ execution: { max_retries: 1 } }, async () => {
      throw new Error("connection refused");
    });
    await failing.publish(BUILD);
    await failing.settle();
    expect(failing.requests).toHaveLength(2);
    expect(json(failing.output()[0]!)["data"]).toMatchObject({
      status: "failed",
      stopReason: "error",
      error: { message: "connection refused" },
    });
    await h.service.stop(1000);
    await failing.service.stop(1000);
  });

  it("abandons an in-flight run on stop without committing it, so it runs again elsewhere", async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const h = await start({}, (_request, signal) => {
      started();
      return new Promise((_resolve, reject) =>
        signal.addEventListener("abort", () => reject(new Error("stopped"))),
      );
    });
    await h.publish(BUILD);
    await running;
    await h.service.stop(0);
    expect(h.output()).toHaveLength(0);
    expect(h.transport.committed("xzatoma-watcher", "xzepr.events").get(0) ?? 0n).toBe(0n);
  });

  it("moves on from a run that never settles: failed after the timeout and 30 s, its slot free for the next partition", async () => {
    vi.useFakeTimers();
    try {
      const h = await start(
        {
          kafka: { num_partitions: 2 },
          execution: { max_concurrent_executions: 1, execution_timeout_secs: 60 },
        },
        async (request) =>
          request.trigger.id === "hangs" ? new Promise<never>(() => undefined) : completed(request),
      );
      const event = JSON.parse(BUILD) as Loose;
      // Keys that land on partitions 0 and 1 of the memory transport.
      await h.publish(JSON.stringify({ ...event, id: "hangs" }), "a");
      await vi.advanceTimersByTimeAsync(1);
      expect(h.requests.map((r) => r.trigger.id)).toEqual(["hangs"]);
      // The only slot is taken: the other partition waits.
      await h.publish(JSON.stringify({ ...event, id: "runs" }), "b");
      await vi.advanceTimersByTimeAsync(60_000 + 29_998);
      expect(h.requests.map((r) => r.trigger.id)).toEqual(["hangs"]);
      await vi.advanceTimersByTimeAsync(1);
      await h.settle();
      expect(h.requests.map((r) => r.trigger.id)).toEqual(["hangs", "runs"]);
      expect(h.output().map((m) => json(m)["data"].status)).toEqual(["failed", "completed"]);
      expect(h.service.status().counts).toMatchObject({ failed: 1, executed: 1 });
      await h.service.stop(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("publishes the stored result again when the same message is redelivered after a lost publish", async () => {
    const ledger = createMemoryLedger();
    const stored = [
      { topic: "xzepr.events.results", records: [{ key: "k", value: '{"stored":true}' }] },
    ];
    ledger.record(
      ledgerKeyOf("xzepr.event.receiver.demo-receiver-001", "01JXZEPR0BUILD0DEMO000001"),
      {
        outcome: "completed",
        delivery: "xzepr.events/0/0",
        result: JSON.stringify(stored),
      },
    );
    const h = await start({}, async (request) => completed(request), ledger);
    await h.publish(BUILD);
    await h.settle();
    expect(h.requests).toHaveLength(0);
    expect(h.output().map(text)).toEqual(['{"stored":true}']);
    await h.service.stop(1000);
  });

  it("in a dry run reads, filters and matches in its own group, logs what would run, and runs, publishes and records nothing", async () => {
    const ledger = createMemoryLedger();
    const h = await start(
      { filters: { event_types: ["build.success"] } },
      async (request) => completed(request),
      ledger,
      { dryRun: true },
    );
    const event = JSON.parse(BUILD) as Loose;
    await h.publish(BUILD, "would-run");
    await h.publish(DEPLOY, "filtered");
    await h.publish("{not json", "bad-json");
    await h.publish(
      JSON.stringify({
        ...event,
        id: "01JXZEPRNOSTEPS0000000000",
        data: {
          ...event.data,
          events: [{ ...event.data.events[0], payload: { plan: { name: "no steps" } } }],
        },
      }),
      "invalid-plan",
    );
    await h.settle();
    // Nothing ran and nothing was published: no result, not even a dead letter.
    expect(h.requests).toHaveLength(0);
    expect(h.output()).toHaveLength(0);
    expect(h.deadLetters()).toHaveLength(0);
    const would = h.logs.filter((line) => line.includes('"msg":"would run the plan (dry run)"'));
    expect(would).toHaveLength(1);
    expect(would[0]).toContain('"event":"01JXZEPR0BUILD0DEMO000001"');
    expect(h.service.status().counts).toMatchObject({
      consumed: 4,
      executed: 0,
      skipped: 1,
      filtered: 1,
      dead_lettered: 2,
    });
    // Its own consumer group committed; the real group's offsets are untouched.
    expect(h.transport.committed("xzatoma-watcher.dry-run", "xzepr.events").get(0)).toBe(4n);
    expect(h.transport.committed("xzatoma-watcher", "xzepr.events").size).toBe(0);
    expect(h.logs.find((line) => line.includes('"msg":"watching"'))).toContain(
      '"group":"xzatoma-watcher.dry-run"',
    );
    // No ledger entry: the real service still runs the event.
    expect(
      ledger.lookup(
        ledgerKeyOf("xzepr.event.receiver.demo-receiver-001", "01JXZEPR0BUILD0DEMO000001"),
      ),
    ).toBeUndefined();
    await h.service.stop(1000);
  });

  it("refuses to start with a source pattern that is not a regular expression", async () => {
    await expect(start({ filters: { source_pattern: "([" } })).rejects.toThrow(
      /filters\.source_pattern: '\(\[' is not a valid regular expression/,
    );
  });
});

describe("the generic watcher", () => {
  const yamlPlan = (name: string, action: string, version: string) =>
    `name: ${name}\naction: ${action}\nversion: ${version}\nsteps:\n  - name: Echo\n    action: Print a greeting\n`;

  it("runs plain YAML and JSON plans that match action, name and a semver range", async () => {
    const h = await start({
      watcher_type: "generic",
      generic_match: { action: "^deploy", name: "svc", version: "^1.2" },
    });
    await h.publish(yamlPlan("svc-a", "Deploy", "1.4.0"), "p1");
    await h.publish(yamlPlan("svc-b", "deploy", "2.0.0"), "p2");
    await h.publish(yamlPlan("other", "deploy", "1.2.0"), "p3");
    await h.publish(yamlPlan("svc-c", "build", "1.2.0"), "p4");
    await h.publish(
      JSON.stringify({
        name: "svc-d",
        action: "deploy",
        version: "1.2.9",
        steps: [{ name: "x", action: "y" }],
      }),
      "p5",
    );
    await h.settle();
    expect(h.requests.map((r) => r.trigger.id)).toEqual(["p1", "p5"]);
    expect(h.output().map((m) => m.key)).toEqual(["p1", "p5"]);
    expect(h.service.status().counts).toMatchObject({ filtered: 3, executed: 2 });
    await h.service.stop(1000);
  });

  it("dead-letters a plan that fails validation and plain text that is no plan", async () => {
    const h = await start({ watcher_type: "generic" });
    await h.publish("name: nameless steps\n", "no-steps");
    await h.publish("just some words", "prose");
    await h.settle();
    expect(h.deadLetters().map((m) => m.key)).toEqual(["no-steps", "prose"]);
    expect(h.requests).toHaveLength(0);
    await h.service.stop(1000);
  });

  it("refuses a version range that is not semver", async () => {
    await expect(
      start({ watcher_type: "generic", generic_match: { version: "latest-ish" } }),
    ).rejects.toThrow(/generic_match\.version: 'latest-ish' is not a semver range/);
  });
});

describe("the watcher's readiness", () => {
  it("is ready while consuming and the broker answers; not while the broker is away, and again once it is back", async () => {
    const transport = createMemoryTransport({ redeliveryDelayMs: 1 });
    let away = false;
    const logs: string[] = [];
    const service = createWatcherService({
      config: watcherConfigSchema.parse({ kafka: { brokers: "b:9092" } }),
      transport: {
        ...transport,
        lag: () =>
          away ? Promise.reject(new Error("connect ECONNREFUSED b:9092")) : transport.lag(),
      },
      executor: async (request) => completed(request),
      ledger: createMemoryLedger(),
      logger: createWatcherLogger({ level: "debug", json: true, write: (line) => logs.push(line) }),
      brokerCheckMs: 20,
    });
    expect(service.status()).toMatchObject({ live: true, ready: false, state: "starting" });
    await service.start();
    expect(service.status()).toMatchObject({ ready: true, state: "consuming" });
    away = true;
    await vi.waitFor(() => expect(service.status().state).toBe("broker-unreachable"), {
      timeout: 30_000,
    });
    expect(service.status()).toMatchObject({
      live: true,
      ready: false,
      brokerError: "connect ECONNREFUSED b:9092",
    });
    away = false;
    await vi.waitFor(() => expect(service.status().ready).toBe(true), { timeout: 30_000 });
    expect(logs.join("\n")).toContain("the broker does not answer");
    await service.stop(0);
    expect(service.status()).toMatchObject({ ready: false, state: "stopping" });
  });

  it("fails to start, naming the broker, when the broker does not answer the connection check", async () => {
    const transport = createMemoryTransport();
    const service = createWatcherService({
      config: watcherConfigSchema.parse({ kafka: { brokers: "b:9092" } }),
      transport: {
        ...transport,
        checkConnection: () =>
          Promise.reject(new Error("The admin client could not reach Kafka at b:9092")),
        consume: () => Promise.reject(new Error("must not join the group")),
      },
      executor: async (request) => completed(request),
      ledger: createMemoryLedger(),
      logger: createWatcherLogger({ level: "error", json: true, write: () => undefined }),
    });
    await expect(service.start()).rejects.toThrow("could not reach Kafka at b:9092");
  });
});
