// The watcher's pipeline, execution stubbed: events/s and RSS (bench/watcher-pipeline.mjs says
// what it does). It runs in a process of its own, from plain JavaScript as the service's bin
// is: run from this TypeScript file, the RSS would include Node's TypeScript loader (type
// stripping, about 16 MiB), which the service never loads. Run: node bench/watcher.ts
// (BENCH_NODE_DEFAULTS=1: Node's V8 defaults instead of the bin's memory settings).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const pipeline = fileURLToPath(new URL("watcher-pipeline.mjs", import.meta.url));
const { status, signal } = spawnSync(process.execPath, [pipeline], { stdio: "inherit" });
if (status !== 0) {
  console.error(`bench/watcher-pipeline.mjs ended with ${signal ?? `exit ${status}`}`);
  process.exit(1);
}
