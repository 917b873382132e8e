// The watcher's cost per full run, in one process and without a broker: EVENTS distinct XZepr
// events (the build fixture with new ids) go through the service over the in-memory transport,
// each one's plan run by the agent runtime (startWatcher's executor, history in SQLite, the
// configured tools and command policy) against a scripted OpenAI-compatible model on
// 127.0.0.1 that answers at once. Reports full runs per second, the process's CPU time per
// event (the scripted model's share included) and the peak RSS. This is the
// share of `node bench/watcher-kafka.ts kinds`'s full runs that Kafka does not explain.
// Run: node bench/watcher-runtime.ts [EVENTS]   (default 1000; concurrency 6, as "kinds")
// With --cpu-prof (node --cpu-prof bench/watcher-runtime.ts) the profile shows what a run costs.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startScriptedOpenAI } from "../tools/scripted-servers/openai-server.ts";

const { resolveRuntimeConfig } = await import("../packages/runtime/dist/index.js");
const { startWatcher } = await import("../packages/watcher/dist/runtime.js");
const { createMemoryTransport } = await import("../packages/xzepr/dist/index.js");
const mib = (bytes: number) => (bytes / 1048576).toFixed(0);

const EVENTS = Number(process.argv[2] ?? 1000);
const fixture = JSON.parse(
  readFileSync(
    new URL("../packages/xzepr/src/__fixtures__/build_success_event.json", import.meta.url),
    "utf8",
  ),
) as Record<string, unknown>;
const home = mkdtempSync(path.join(os.tmpdir(), "xz-bench-watcher-runtime-"));
const workspace = mkdtempSync(path.join(os.tmpdir(), "xz-bench-watcher-runtime-ws-"));
const model = await startScriptedOpenAI({
  scenario: () => ({ content: "ok" }),
  apiKey: "sk-bench",
});
const config = resolveRuntimeConfig(
  {
    provider: { type: "openai", openai: { base_url: model.url, model: "scripted" } },
    agent: { terminal: { sandbox: false } },
    persistence: { data_dir: path.join(home, "data") },
    watcher: {
      filters: { event_types: ["build.success"] },
      execution: { max_concurrent_executions: 6 },
    },
  },
  { homeDir: home, env: {} },
);
const transport = createMemoryTransport();
const watcher = await startWatcher({
  config,
  workspace,
  transport,
  env: { OPENAI_API_KEY: "sk-bench", HOME: home, PATH: process.env["PATH"] ?? "" },
  write: () => undefined,
});
let peak = process.memoryUsage().rss;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const started = performance.now();
const cpuStarted = process.cpuUsage();
for (let i = 0; i < EVENTS; i += 1) {
  const id = `01JXZEPRRUNTIME${String(i).padStart(11, "0")}`;
  await transport.publish({
    topic: "xzepr.events",
    records: [{ key: id, value: JSON.stringify({ ...fixture, id }) }],
  });
}
await transport.drained();
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStarted);
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage().rss);
await watcher.close(1000);
await model.close();
const results = transport.messages("xzepr.events.results").length;
const requests = model.chatRequests.length;
rmSync(home, { recursive: true, force: true });
rmSync(workspace, { recursive: true, force: true });
console.log(
  `watcher full runs in process, model at once: ${EVENTS} events in ${seconds.toFixed(2)} s = ${Math.round(EVENTS / seconds)} events/s; ${results} results, ${requests} model requests; CPU ${((cpu.user + cpu.system) / 1000 / EVENTS).toFixed(2)} ms per event (the model server's included); peak RSS ${mib(peak)} MiB; load ${os.loadavg()[0]!.toFixed(2)}`,
);
