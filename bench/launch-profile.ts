// Where the time from launching `xzatoma run --prompt hello` to its first model request goes:
// RUNS runs (default 8) with a CPU profile (`--cpu-prof`, a sample every 100 µs), each cut at
// the moment the scripted Ollama server saw the request, every sample's function mapped
// through the bundle's source maps to the package it came from. Printed: the median self time
// per package (zod, XZatoma's packages, other dependencies, Node's own modules, the garbage
// collector, compiling and loading), and the median of the whole span.
//
//   node bench/launch-profile.ts [BIN] [RUNS] [--functions]
//
// --functions also prints the inclusive time (the function and everything it called) of the
// XZatoma functions and module top levels that took the most, by source file and name.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { SourceMap } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SCENARIOS, startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { CLI, median, ROOT, run } from "./measure.ts";

const args = process.argv.slice(2);
const byFunction = args.includes("--functions");
const bin = path.resolve(args.find((arg) => !/^\d+$/.test(arg) && !arg.startsWith("--")) ?? CLI);
const RUNS = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 8);

interface ProfileNode {
  readonly id: number;
  readonly children?: readonly number[];
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
    readonly columnNumber: number;
  };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const maps = new Map<string, SourceMap | undefined>();
async function sourceMapOf(file: string): Promise<SourceMap | undefined> {
  if (!maps.has(file)) {
    try {
      maps.set(file, new SourceMap(JSON.parse(await readFile(`${file}.map`, "utf8"))));
    } catch {
      maps.set(file, undefined);
    }
  }
  return maps.get(file);
}

/** The source file a profiled function comes from, through the chunk's source map. */
async function sourceOf(frame: ProfileNode["callFrame"]): Promise<string | undefined> {
  if (!frame.url.startsWith("file:")) return undefined;
  const file = fileURLToPath(frame.url);
  const map = await sourceMapOf(file);
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as
    { originalSource?: string } | undefined;
  return entry?.originalSource ?? file;
}

/** The bucket a sampled function belongs to. */
async function bucketOf(frame: ProfileNode["callFrame"]): Promise<string> {
  if (frame.url === "") {
    if (frame.functionName === "(garbage collector)") return "(garbage collector)";
    if (frame.functionName === "(idle)") return "(idle: waiting for I/O)";
    return "(program: compiling, loading, native)";
  }
  if (frame.url.startsWith("node:")) return "Node's own modules";
  if (!frame.url.startsWith("file:")) return "other";
  const file = fileURLToPath(frame.url);
  const map = await sourceMapOf(file);
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as
    { originalSource?: string } | undefined;
  const source = entry?.originalSource ?? file;
  const stored = /node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)@/.exec(source)?.[1];
  if (stored) return stored.replace("+", "/");
  const dependency = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1];
  if (dependency) return dependency;
  if (/(^|\/)src\//.test(source) && !source.includes("/packages/")) return "apps/cli";
  const own = /(?:^|\/)(packages\/[^/]+)\//.exec(source)?.[1];
  return own ?? path.basename(source);
}

/** Adds one run's totals to the runs' values of each name. */
function addRun(perRun: Map<string, number[]>, run: ReadonlyMap<string, number>): void {
  for (const [name, ms] of run) {
    if (!perRun.has(name)) perRun.set(name, []);
    perRun.get(name)!.push(ms);
  }
}

// The profile's clock (µs, monotonic) against the server's (ms since the epoch).
const clockOffsetMs =
  performance.timeOrigin + performance.now() - Number(process.hrtime.bigint()) / 1e6;

const server = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
const perBucket = new Map<string, number[]>();
/** zod's self time by the nearest XZatoma source file below it on the stack. */
const zodCallers = new Map<string, number[]>();
const spans: number[] = [];
/** Inclusive time per XZatoma function ("file: name"), one entry per profiled run. */
const inclusive = new Map<string, number[]>();
try {
  for (let index = 0; index <= RUNS; index++) {
    const directory = await mkdtemp(path.join(os.tmpdir(), "xz-launch-profile-"));
    try {
      const before = server.requestTimes.length;
      const result = await run(process.execPath, [
        "--cpu-prof",
        "--cpu-prof-interval",
        "100",
        "--cpu-prof-dir",
        directory,
        bin,
        "run",
        "--prompt",
        "hello",
        "--host",
        server.url,
        "-w",
        ROOT,
      ]);
      if (result.code !== 0) throw new Error(`xzatoma run failed: ${result.stderr}`);
      const arrived = server.requestTimes[before];
      if (arrived === undefined) throw new Error("no model request arrived");
      if (index === 0) continue; // warms the file cache
      spans.push(arrived - result.startedAt);
      const [name] = (await readdir(directory)).filter((file) => file.endsWith(".cpuprofile"));
      const profile = JSON.parse(await readFile(path.join(directory, name!), "utf8")) as Profile;
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      const parents = new Map<number, number>();
      for (const node of profile.nodes)
        for (const child of node.children ?? []) parents.set(child, node.id);
      const totals = new Map<string, number>();
      const callers = new Map<string, number>();
      const functionTotals = new Map<string, number>();
      const functionKeys = new Map<number, string | undefined>();
      const functionKeyOf = async (id: number): Promise<string | undefined> => {
        if (!functionKeys.has(id)) {
          const frame = byId.get(id)!.callFrame;
          const source = await sourceOf(frame);
          functionKeys.set(
            id,
            source && !source.includes("node_modules")
              ? `${source.replace(/^(\.\.\/)+/, "")}: ${frame.functionName || "(top level)"}`
              : undefined,
          );
        }
        return functionKeys.get(id);
      };
      let at = profile.startTime;
      for (let sample = 0; sample < profile.samples.length; sample++) {
        const delta = profile.timeDeltas[sample] ?? 0;
        at += delta;
        if (at / 1000 + clockOffsetMs > arrived) break;
        const node = byId.get(profile.samples[sample]!);
        if (!node) continue;
        const bucket = await bucketOf(node.callFrame);
        if (byFunction) {
          const seen = new Set<string>();
          for (let id: number | undefined = node.id; id !== undefined; id = parents.get(id)) {
            const key = await functionKeyOf(id);
            if (key === undefined || seen.has(key)) continue;
            seen.add(key);
            functionTotals.set(key, (functionTotals.get(key) ?? 0) + delta / 1000);
          }
        }
        totals.set(bucket, (totals.get(bucket) ?? 0) + delta / 1000);
        if (bucket === "zod") {
          let caller = "(zod's own module evaluation)";
          for (let id = parents.get(node.id); id !== undefined; id = parents.get(id)) {
            const source = await sourceOf(byId.get(id)!.callFrame);
            if (!source || source.includes("node_modules")) continue;
            caller = source.replace(/^(\.\.\/)+/, "");
            break;
          }
          callers.set(caller, (callers.get(caller) ?? 0) + delta / 1000);
        }
      }
      addRun(inclusive, functionTotals);
      addRun(zodCallers, callers);
      addRun(perBucket, totals);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }
} finally {
  await server.close();
}
/** Each name's median over the runs (a run without it counts as 0), largest first. */
function medianRows(perRun: ReadonlyMap<string, number[]>) {
  return [...perRun]
    .map(([name, values]) => {
      while (values.length < RUNS) values.push(0);
      return { name, ms: median(values) };
    })
    .sort((a, b) => b.ms - a.ms);
}

/** Prints at most `most` rows of at least `atLeast` ms. */
function printRows(rows: ReturnType<typeof medianRows>, most: number, atLeast: number): void {
  for (const { name, ms } of rows.slice(0, most))
    if (ms >= atLeast) console.log(`  ${ms.toFixed(1).padStart(6)} ms  ${name}`);
}

console.log(
  `launch to the first request, median of ${RUNS} profiled runs: ${median(spans).toFixed(1)} ms ` +
    `(profiling slows it); the profile's part before the request, median self time:`,
);
printRows(medianRows(perBucket), Infinity, 0.5);
console.log("zod's self time by the XZatoma file that called into it (median over the runs):");
printRows(medianRows(zodCallers), 15, 0.2);
if (byFunction) {
  console.log("XZatoma functions by inclusive time before the request (median over the runs):");
  printRows(medianRows(inclusive), 60, 0.3);
}
