// The local provider (node-llama-cpp, CPU) with SmolLM2-135M-Instruct Q4_1: cold load
// time in a fresh process (import, runtime, model and context), median of 5, and
// generation speed, median of 5 runs of 128 tokens: time to first token and decode
// tokens per second, prompt evaluation in tokens per second (a ~1,000-token prompt), and the
// process's peak RSS with the model loaded. Needs the model
// (bash tools/models/fetch-smollm2.sh) and the built package; XZ_LOCAL_BUILD points at
// another build of src/local (its index.js), XZ_LOCAL_MODEL at another GGUF file (the
// candidates of docs/reference/local-models.md: bash tools/models/fetch-model.sh NAME),
// XZ_LOCAL_RUNS sets the number of runs (default 5).
//
//   node bench/local-model.ts
//   XZ_LOCAL_THREADS=1 node bench/local-model.ts
//   XZ_LOCAL_MODEL=.cache/models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf XZ_LOCAL_RUNS=3 node bench/local-model.ts
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as Local from "../packages/providers/src/local/index.ts";
import { format, median, ROOT } from "./measure.ts";

const MODULE = process.env["XZ_LOCAL_BUILD"] ?? path.join(ROOT, "packages/providers/dist/index.js");
const MODEL =
  process.env["XZ_LOCAL_MODEL"] ?? path.join(ROOT, ".cache/models/SmolLM2-135M-Instruct.Q4_1.gguf");
const THREADS = process.env["XZ_LOCAL_THREADS"]
  ? Number(process.env["XZ_LOCAL_THREADS"])
  : undefined;
const RUNS = process.env["XZ_LOCAL_RUNS"] ? Number(process.env["XZ_LOCAL_RUNS"]) : 5;
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`local-model: XZ_LOCAL_RUNS must be a whole number of at least 1`);
  process.exit(2);
}
const TOKENS = 128;

async function importLocal(): Promise<typeof Local> {
  return (await import(pathToFileURL(MODULE).href)) as typeof Local;
}

function options() {
  return { modelPath: MODEL, contextSize: 2048, ...(THREADS ? { threads: THREADS } : {}) };
}

if (process.argv[2] === "--cold-load") {
  // One cold load in this fresh process; prints its timings as JSON.
  const started = performance.now();
  const local = await importLocal();
  const imported = performance.now();
  await local.loadLocalModel(options());
  const loaded = performance.now();
  console.log(
    JSON.stringify({ importMs: imported - started, loadMs: loaded - imported, sinceStart: loaded }),
  );
  await local.disposeLocalModels();
  process.exit(0);
}

for (const [file, hint] of [
  [MODEL, "bash tools/models/fetch-smollm2.sh"],
  [MODULE, "nx run providers:build (or set XZ_LOCAL_BUILD)"],
] as const) {
  if (!existsSync(file)) {
    console.error(`local-model: ${file} is missing; run ${hint}`);
    process.exit(1);
  }
}

const cold = Array.from({ length: RUNS }, () => {
  const child = spawnSync(process.execPath, [import.meta.filename, "--cold-load"], {
    encoding: "utf8",
    env: process.env,
  });
  if (child.status !== 0) throw new Error(`cold load failed:\n${child.stderr}`);
  return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as {
    importMs: number;
    loadMs: number;
    sinceStart: number;
  };
});

const local = await importLocal();
const model = await local.loadLocalModel(options());
const runs: { firstTokenMs: number; decodePerSecond: number; tokens: number }[] = [];
for (let run = 0; run <= RUNS; run += 1) {
  // A different first line each run, so no run reuses the previous prompt's cache.
  const { stream } = await model.doStream({
    prompt: [
      { role: "system", content: `Run ${run}. You are a storyteller.` },
      { role: "user", content: [{ type: "text", text: "Tell a long story about a robot." }] },
    ],
    maxOutputTokens: TOKENS,
  });
  const started = performance.now();
  let firstToken: number | undefined;
  let tokens = 0;
  for await (const part of stream) {
    if (part.type === "text-delta") firstToken ??= performance.now();
    if (part.type === "finish") tokens = part.usage.outputTokens.total ?? 0;
  }
  const ended = performance.now();
  if (run === 0 || firstToken === undefined) continue; // the first run warms up
  runs.push({
    firstTokenMs: firstToken - started,
    decodePerSecond: ((tokens - 1) * 1000) / (ended - firstToken),
    tokens,
  });
}
// Prompt evaluation: an agent's request is mostly prompt (the system prompt and the tools'
// schemas are ~1,300 tokens), so its speed counts as much as decoding. A prompt of about
// 1,000 tokens, different each run, answered with one token: its tokens over the time to
// that token.
const promptRuns: { promptPerSecond: number; promptTokens: number }[] = [];
for (let run = 0; run <= RUNS; run += 1) {
  const filler = Array.from(
    { length: 60 },
    (_, line) => `Line ${line} of record ${run}: the robot checked crate ${line * 7 + run}.`,
  ).join("\n");
  const started = performance.now();
  const result = await model.doGenerate({
    prompt: [
      { role: "system", content: `Run ${run}. You read inventory logs.` },
      { role: "user", content: [{ type: "text", text: `${filler}\nSay OK.` }] },
    ],
    maxOutputTokens: 1,
  });
  const ended = performance.now();
  if (run === 0) continue; // the first run warms up
  const promptTokens = result.usage.inputTokens.total ?? 0;
  promptRuns.push({ promptPerSecond: (promptTokens * 1000) / (ended - started), promptTokens });
}
// Before disposing: the peak of this process (Node, the runtime, the model and its context).
const peakRssMiB = process.resourceUsage().maxRSS / 1024;
await local.disposeLocalModels();

console.log(
  `local model (node-llama-cpp CPU, ${path.basename(MODEL)}, threads ${THREADS ?? "default"}, node ${process.version})`,
);
console.log(
  `  cold load, median of ${RUNS}   ${format(median(cold.map((c) => c.importMs + c.loadMs)))}  (import ${format(median(cold.map((c) => c.importMs)))}, runtime+model+context ${format(median(cold.map((c) => c.loadMs)))}; ${format(median(cold.map((c) => c.sinceStart)))} after process start)`,
);
console.log(
  `  first token, median of ${RUNS} ${format(median(runs.map((r) => r.firstTokenMs)))}  (prompt of ~40 tokens)`,
);
console.log(
  `  generation, median of ${RUNS}  ${median(runs.map((r) => r.decodePerSecond)).toFixed(1)} tokens/s  (${median(runs.map((r) => r.tokens))} tokens per run)`,
);
console.log(
  `  prompt, median of ${RUNS}      ${median(promptRuns.map((r) => r.promptPerSecond)).toFixed(1)} tokens/s  (${median(promptRuns.map((r) => r.promptTokens))} prompt tokens per run, one token answered)`,
);
console.log(
  `  peak RSS                  ${peakRssMiB.toFixed(0)} MiB  (model and a 2048-token context loaded)`,
);
