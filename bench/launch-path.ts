// The files one `xzatoma run --prompt hello` passes through: the run is made against the
// scripted Ollama server with V8's coverage on (NODE_V8_COVERAGE), and every position of the
// bundle's chunks that ran is mapped back through the chunks' source maps to the file it came
// from. A source file counts when any of its code ran (a function called, or its module's top
// level evaluated). Printed: XZatoma's source files and packages, the third-party packages,
// and the chunks loaded with their size.
//
//   node bench/launch-path.ts [BIN] [--list]
//
// BIN defaults to apps/cli/bin/xzatoma.js; give another build's bin for a before figure.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SCENARIOS, startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { CLI, ROOT, run } from "./measure.ts";

const args = process.argv.slice(2);
const list = args.includes("--list");
const bin = path.resolve(args.find((arg) => !arg.startsWith("--")) ?? CLI);
const dist = path.join(path.dirname(bin), "..", "dist");

interface Range {
  readonly startOffset: number;
  readonly endOffset: number;
  readonly count: number;
}
interface ScriptCoverage {
  readonly url: string;
  readonly functions: readonly { readonly ranges: readonly Range[] }[];
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Each mapping of a source map: generated line and column, and its source's index. */
function* mappings(encoded: string): Generator<[line: number, column: number, source: number]> {
  let source = 0;
  let line = 0;
  for (const lineText of encoded.split(";")) {
    let column = 0;
    for (const segment of lineText.split(",")) {
      if (segment === "") continue;
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0] ?? 0;
      if (values.length >= 4) {
        source += values[1] ?? 0;
        yield [line, column, source];
      }
    }
    line += 1;
  }
}

/**
 * 1 for every character of `length` that ran: the innermost range covering it has a count.
 * `calledOnly`: leave out the script's top level (its first function), so that only code
 * inside functions that were called counts.
 */
function ranOffsets(length: number, script: ScriptCoverage, calledOnly: boolean): Uint8Array {
  const ran = new Uint8Array(length);
  const ranges = script.functions
    .slice(calledOnly ? 1 : 0)
    .flatMap((fn) => fn.ranges)
    .sort((a, b) => b.endOffset - b.startOffset - (a.endOffset - a.startOffset));
  for (const range of ranges)
    ran.fill(range.count > 0 ? 1 : 0, range.startOffset, Math.min(range.endOffset, length));
  return ran;
}

/** What a source path of the bundle names: a workspace package's file, or a dependency. */
function classify(source: string): { workspace?: string; file?: string; dependency?: string } {
  // pnpm's store directory names the package even where a library's own source map does not.
  const stored = /node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)@/.exec(source)?.[1];
  if (stored) return { dependency: stored.replace("+", "/") };
  const dependency = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1];
  if (dependency) return { dependency };
  // The CLI's own sources sit beside its dist directory.
  if (source.startsWith("../src/"))
    return { workspace: "apps/cli", file: `apps/cli/${source.slice(3)}` };
  const own = /(?:^|\/)((?:packages|apps|tools)\/[^/]+)\/(.+)$/.exec(source);
  if (own) return { workspace: own[1]!, file: `${own[1]}/${own[2]}` };
  return {};
}

const server = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
const coverage = await mkdtemp(path.join(os.tmpdir(), "xz-launch-path-"));
try {
  const result = await run(
    process.execPath,
    [bin, "run", "--prompt", "hello", "--host", server.url, "-w", ROOT],
    { ...process.env, NODE_V8_COVERAGE: coverage },
  );
  if (result.code !== 0) throw new Error(`xzatoma run failed: ${result.stderr}`);
  if (server.requests.length === 0) throw new Error("no model request arrived");

  const files = new Set<string>();
  const called = new Set<string>();
  const workspaces = new Set<string>();
  const dependencies = new Set<string>();
  const chunks: { name: string; bytes: number; ran: number }[] = [];
  for (const name of await readdir(coverage)) {
    const { result: scripts } = JSON.parse(await readFile(path.join(coverage, name), "utf8")) as {
      result: ScriptCoverage[];
    };
    for (const script of scripts) {
      if (!script.url.startsWith("file:")) continue;
      const file = fileURLToPath(script.url);
      if (path.dirname(file) !== path.resolve(dist) || !file.endsWith(".js")) continue;
      const text = await readFile(file, "utf8");
      const chunk = { name: path.basename(file), bytes: Buffer.byteLength(text), ran: 0 };
      chunks.push(chunk);
      const map = JSON.parse(await readFile(`${file}.map`, "utf8")) as {
        sources: string[];
        mappings: string;
      };
      const lineStarts = [0];
      for (let index = 0; index < text.length; index++)
        if (text.charCodeAt(index) === 10) lineStarts.push(index + 1);
      const ran = ranOffsets(text.length, script, false);
      const ranInFunctions = ranOffsets(text.length, script, true);
      chunk.ran = ranInFunctions.reduce((sum, value) => sum + value, 0) / Math.max(1, text.length);
      const seen = new Set<number>();
      for (const [line, column, source] of mappings(map.mappings)) {
        const offset = (lineStarts[line] ?? text.length) + column;
        const kind = classify(map.sources[source] ?? "");
        if (kind.file && ranInFunctions[offset] === 1) called.add(kind.file);
        if (seen.has(source) || ran[offset] !== 1) continue;
        seen.add(source);
        if (kind.file) files.add(kind.file);
        if (kind.workspace) workspaces.add(kind.workspace);
        if (kind.dependency) dependencies.add(kind.dependency);
      }
    }
  }
  const kib = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0) / 1024;
  console.log(`bin: ${path.relative(process.cwd(), bin) || bin}`);
  console.log(
    `one run request ran code of ${files.size} XZatoma source files in ${workspaces.size} packages, ` +
      `and of ${dependencies.size} third-party packages`,
  );
  console.log(`  of them with a function called (not only the module evaluated): ${called.size}`);
  console.log(`  chunks loaded: ${chunks.length}, ${kib.toFixed(0)} KiB`);
  console.log(`  XZatoma packages: ${[...workspaces].sort().join(", ")}`);
  console.log(`  third-party packages: ${[...dependencies].sort().join(", ")}`);
  if (list)
    for (const chunk of [...chunks].sort((a, b) => b.bytes - a.bytes))
      console.log(
        `    ${(chunk.bytes / 1024).toFixed(0).padStart(5)} KiB, ${(chunk.ran * 100).toFixed(0).padStart(2)}% of it in functions called: ${chunk.name}`,
      );
  if (list)
    for (const file of [...files].sort())
      console.log(`    ${called.has(file) ? "called   " : "evaluated"} ${file}`);
} finally {
  await server.close();
  await rm(coverage, { recursive: true, force: true });
}
