// The watcher's own cost per event, execution stubbed: 10,000 distinct XZepr events (the
// build fixture with new ids) go through decode, filter, plan parsing, the ledger and the
// result event, over the in-memory transport. The ledger is the one production uses: the
// history database (SQLite, in a temporary directory) through historyLedger. Reports events
// per second (target: at least 2,000/s on one instance) and the peak RSS with the whole
// backlog queued (target: under 150 MiB). Run: node bench/watcher.ts, which runs this file
// in a process of its own: plain JavaScript, as the service is, so the RSS holds no
// TypeScript loader (Node's type stripping, about 16 MiB, which the service never loads).
//
// V8 is set up as the service's bin sets it (apps/watcher/bin/memory-flags.js) before the
// rest loads; BENCH_NODE_DEFAULTS=1 leaves Node's defaults. The RSS is also given after the
// modules load and once the backlog is queued, which tells the service's share from the
// bench's own: the in-memory transport keeps every input and every result, as a broker would.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setMemoryFlags } from "../apps/watcher/bin/memory-flags.js";

const nodeDefaults = process.env["BENCH_NODE_DEFAULTS"] === "1";
if (!nodeDefaults) setMemoryFlags();
const { openHistory } = await import("../packages/persistence/dist/index.js");
const { redactSecrets } = await import("../packages/safety/dist/index.js");
const { createWatcherService, historyLedger, watcherConfigSchema } =
  await import("../packages/watcher/dist/index.js");
const { createMemoryTransport } = await import("../packages/xzepr/dist/index.js");
/** @param {number} bytes */
const mib = (bytes) => (bytes / 1048576).toFixed(0);
const loaded = process.memoryUsage().rss;

const EVENTS = 10_000;
const fixture = readFileSync(
  new URL("../packages/xzepr/src/__fixtures__/build_success_event.json", import.meta.url),
  "utf8",
);
/** @type {Record<string, unknown>} */
const event = JSON.parse(fixture);
const config = watcherConfigSchema.parse({ filters: { event_types: ["build.success"] } });
const transport = createMemoryTransport();
// As the watcher opens it (openRuntimeHistory in start-watcher): a file database, outcomes
// redacted, commits synced at checkpoints.
const dataDir = mkdtempSync(path.join(os.tmpdir(), "xz-bench-watcher-"));
const history = openHistory({
  path: path.join(dataDir, "history.db"),
  redact: redactSecrets,
  durability: "normal",
});
let peak = process.memoryUsage().rss;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
for (let i = 0; i < EVENTS; i += 1) {
  const id = `01JXZEPRBENCH${String(i).padStart(12, "0")}`;
  await transport.publish({
    topic: "xzepr.events",
    records: [{ key: id, value: JSON.stringify({ ...event, id }) }],
  });
}
const queued = process.memoryUsage().rss;
const service = createWatcherService({
  config,
  transport,
  ledger: historyLedger(history),
  executor: async () => ({ stopReason: "completed", text: "ok", turns: 1 }),
  logger: { debug() {}, info() {}, warn() {}, error() {} },
});
const started = performance.now();
await service.start();
await transport.drained();
const seconds = (performance.now() - started) / 1000;
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage().rss);
await service.stop(0);
history.close();
rmSync(dataDir, { recursive: true, force: true });
const results = transport.messages("xzepr.events.results").length;
console.log(
  `watcher pipeline, execution stubbed${nodeDefaults ? " (Node's defaults)" : ""}: ${EVENTS} events in ${seconds.toFixed(2)} s = ${Math.round(EVENTS / seconds)} events/s; ${results} results; RSS ${mib(loaded)} MiB loaded, ${mib(queued)} MiB with the backlog queued, peak ${mib(peak)} MiB`,
);
