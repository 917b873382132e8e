// The health endpoint as `xzatoma-watcher run` assembles it: the real HTTP server on
// 127.0.0.1 (port 0), the watcher service over the in-memory transport, and the Prometheus
// exporter the run command's telemetry serves through the same server.
import { readFileSync } from "node:fs";
import {
  createMemoryLedger,
  createWatcherLogger,
  createWatcherService,
  watcherConfigSchema,
  watcherTopics,
  type ExecutionReport,
  type WatcherService,
} from "@xzatoma/watcher";
import { createMemoryTransport } from "@xzatoma/xzepr";
import { afterEach, describe, expect, it } from "vitest";
import { serveHealth, type HealthServer } from "./health-server.js";
import { startTelemetry, type WatcherTelemetry } from "./telemetry/index.js";

const fixture = (name: string) =>
  readFileSync(
    new URL(`../../../packages/xzepr/src/__fixtures__/${name}`, import.meta.url),
    "utf8",
  );
const BUILD = fixture("build_success_event.json");
const DEPLOY = fixture("deploy_success_event.json");

const report: ExecutionReport = {
  stopReason: "completed",
  text: "Verified.",
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
  turns: 1,
};

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function get(url: string): Promise<{ status: number; type: string; body: string }> {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    body: await response.text(),
  };
}

/** The value of one series in Prometheus text; undefined when the series is not there. */
function sample(text: string, name: string): number | undefined {
  const line = text
    .split("\n")
    .find((candidate) => new RegExp(`^${name}(\\{[^}]*\\})? `).test(candidate));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

/** The value of the series of `name` whose label `label` is `value`. */
function labelled(text: string, name: string, label: string, value: string): number | undefined {
  const line = text
    .split("\n")
    .find(
      (candidate) => candidate.startsWith(`${name}{`) && candidate.includes(`${label}="${value}"`),
    );
  return line === undefined ? undefined : Number(line.split(" ")[1]);
}

async function assemble(): Promise<{
  service: WatcherService;
  server: HealthServer;
  publish: (value: string) => Promise<void>;
  drained: () => Promise<void>;
}> {
  const telemetry: WatcherTelemetry | undefined = await startTelemetry(
    {},
    { prometheusHandler: true },
  );
  expect(telemetry?.metricsHandler).toBeDefined();
  cleanup.push(() => telemetry!.shutdown());
  const config = watcherConfigSchema.parse({
    filters: { event_types: ["build.success"] },
    execution: { retry_backoff_ms: 0 },
  });
  const transport = createMemoryTransport({ redeliveryDelayMs: 1 });
  const service = createWatcherService({
    config,
    transport,
    executor: async () => report,
    ledger: createMemoryLedger(),
    meter: telemetry!.meter,
    instance: "xzatoma-watcher://test/1",
    logger: createWatcherLogger({ level: "error", json: true, write: () => undefined }),
  });
  cleanup.push(() => service.stop(1000));
  const server = await serveHealth({
    host: "127.0.0.1",
    port: 0,
    status: () => service.status(),
    metrics: telemetry!.metricsHandler!,
  });
  cleanup.push(() => server.close());
  const input = watcherTopics(config).input;
  return {
    service,
    server,
    publish: (value) => transport.publish({ topic: input, records: [{ value }] }),
    drained: () => transport.drained(),
  };
}

describe("the watcher's health endpoint", () => {
  it("is live throughout, ready only while consuming, and 404/405 for anything else", async () => {
    const { service, server } = await assemble();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const live = await get(`${server.url}/healthz`);
    expect(live.status).toBe(200);
    expect(live.type).toBe("application/json");
    expect(JSON.parse(live.body)).toMatchObject({ live: true, ready: false, stopping: false });
    // Not ready before the transport consumes.
    const starting = await get(`${server.url}/readyz`);
    expect(starting.status).toBe(503);
    expect(JSON.parse(starting.body)).toMatchObject({ ready: false });

    await service.start();
    const ready = await get(`${server.url}/readyz?verbose=1`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({ live: true, ready: true, stopping: false });

    await service.stop(1000);
    const stopped = await get(`${server.url}/readyz`);
    expect(stopped.status).toBe(503);
    expect(JSON.parse(stopped.body)).toMatchObject({ ready: false, stopping: true });
    expect((await get(`${server.url}/healthz`)).status).toBe(200);

    expect((await get(`${server.url}/nothing`)).status).toBe(404);
    expect((await fetch(`${server.url}/healthz`, { method: "POST" })).status).toBe(405);
  });

  it("serves the watcher's event counters on /metrics as Prometheus text, matching what it processed", async () => {
    const { service, server, publish, drained } = await assemble();
    await service.start();
    await publish(BUILD); // executed
    await publish(BUILD); // duplicate
    await publish(DEPLOY); // filtered (only build.success)
    await publish("{not json"); // dead-lettered
    await drained();

    const scraped = await get(`${server.url}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.type).toMatch(/^text\/plain/);
    const text = scraped.body;
    expect(text).toMatch(/^# TYPE messaging_client_consumed_messages_total counter$/m);
    expect(sample(text, "messaging_client_consumed_messages_total")).toBe(4);
    expect(text).toMatch(
      /^messaging_client_consumed_messages_total\{[^}]*messaging_destination_name="xzepr\.events"[^}]*\} 4/m,
    );
    const count = (outcome: string) =>
      labelled(text, "xzatoma_watcher_events_total", "xzatoma_watcher_outcome", outcome);
    expect(count("executed")).toBe(1);
    expect(count("duplicate")).toBe(1);
    expect(count("filtered")).toBe(1);
    expect(count("dead_lettered")).toBe(1);
    // Nothing failed, was republished or skipped: the series are there, at zero.
    for (const none of ["failed", "republished", "skipped"]) expect(count(none)).toBe(0);
    // Dead letters by reason: the one that is not JSON, and every other reason at zero.
    const deadLetters = (code: string) =>
      labelled(text, "xzatoma_watcher_dead_letters_total", "error_type", code);
    expect(deadLetters("undecodable")).toBe(1);
    for (const code of ["too_large", "tombstone", "no_plan", "invalid_plan"]) {
      expect(deadLetters(code)).toBe(0);
    }
    expect(
      labelled(
        text,
        "xzatoma_watcher_xzepr_reports_dropped_total",
        "error_type",
        "retries_exhausted",
      ),
    ).toBe(0);
    // The run's duration is in the histogram, by status.
    expect(sample(text, "xzatoma_watcher_execution_duration_count")).toBe(1);
    // The same counts as the status the probes read.
    expect(service.status().counts).toMatchObject({
      consumed: 4,
      executed: 1,
      duplicate: 1,
      filtered: 1,
      dead_lettered: 1,
    });
  });
});
