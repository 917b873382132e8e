// The watcher's own cost per event, execution stubbed: 10,000 distinct XZepr events (the
// build fixture with new ids) go through decode, filter, plan parsing, the ledger and the
// result event, over the in-memory transport. The ledger is the one production uses: the
// history database (SQLite, in a temporary directory) through historyLedger. Reports events
// per second (target: at least 2,000/s on one instance) and the peak RSS with the whole
// backlog queued (target: under 150 MiB). Run: node bench/watcher.ts
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openHistory } from "../packages/persistence/dist/index.js";
import { redactSecrets } from "../packages/safety/dist/index.js";
import {
  createWatcherService,
  historyLedger,
  watcherConfigSchema,
} from "../packages/watcher/dist/index.js";
import { createMemoryTransport } from "../packages/xzepr/dist/index.js";

const EVENTS = 10_000;
const fixture = readFileSync(
  new URL("../packages/xzepr/src/__fixtures__/build_success_event.json", import.meta.url),
  "utf8",
);
const event = JSON.parse(fixture) as Record<string, unknown>;
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
  `watcher pipeline, execution stubbed: ${EVENTS} events in ${seconds.toFixed(2)} s = ${Math.round(EVENTS / seconds)} events/s; ${results} results; peak RSS ${(peak / 1048576).toFixed(0)} MiB`,
);
