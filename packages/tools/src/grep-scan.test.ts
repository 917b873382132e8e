// The grep workers skip ahead by whole chunks and jump between candidate lines; this
// compares their output with a plain line-by-line reference on files of several chunks.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "./file-tools.test-support.js";
import { GREP_WORKER_URL } from "./grep-pool.js";

let ws: TestWorkspace;
const files: Record<string, string> = {};

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function makeFile(seed: number, lines: number, crlf: boolean): string {
  const next = random(seed);
  const words = ["alpha", "beta", "needle", "nEEdle7", "needle7", "hay", "", "neeedle3"];
  const out: string[] = [];
  for (let index = 0; index < lines; index++) {
    const count = Math.floor(next() * 12);
    const parts = Array.from({ length: count }, () => {
      const word = words[Math.floor(next() * words.length)] ?? "";
      return word.startsWith("n") && next() < 0.97 ? "hay" : word;
    });
    out.push(parts.join(" "));
  }
  return out.join(crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n");
}

/** grep as a plain loop over lines, formatted as the tool formats it. */
function reference(pattern: RegExp, context: number): string[] {
  const output: string[] = [];
  for (const name of Object.keys(files).sort()) {
    const lines = (files[name] ?? "").split("\n");
    if (lines.at(-1) === "") lines.pop();
    const text = lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
    const shown = new Map<number, boolean>();
    text.forEach((line, index) => {
      if (!pattern.test(line)) return;
      for (
        let near = Math.max(0, index - context);
        near <= Math.min(text.length - 1, index + context);
        near++
      ) {
        if (!shown.get(near)) shown.set(near, near === index);
      }
      shown.set(index, true);
    });
    const numbers = [...shown.keys()].sort((a, b) => a - b);
    if (numbers.length === 0) continue;
    if (context > 0 && output.length > 0) output.push("--");
    numbers.forEach((number, position) => {
      const previous = numbers[position - 1];
      if (context > 0 && previous !== undefined && number > previous + 1) output.push("--");
      const match = shown.get(number) === true;
      output.push(
        `${name}${match ? ":" : "-"}${number + 1}${match ? ":" : "-"} ${text[number] ?? ""}`,
      );
    });
  }
  return output;
}

beforeAll(async () => {
  ws = await createTestWorkspace({ grep: { maxFileBytes: 8 * 1024 * 1024, workers: 2 } });
  files["big.txt"] = makeFile(1, 40_000, false);
  files["crlf.txt"] = makeFile(2, 30_000, true);
  files["small.txt"] = makeFile(3, 50, false);
  files["tail-no-newline.txt"] = makeFile(4, 200, false).trimEnd();
  for (const [name, content] of Object.entries(files)) await ws.write(`scan/${name}`, content);
}, 30_000);

afterAll(async () => {
  await ws.cleanup();
});

describe("grep workers", () => {
  const cases: [string, RegExp, boolean][] = [
    ["needle", /needle/, true],
    ["ne+dle\\d", /ne+dle\d/, true],
    ["NEEDLE7", /NEEDLE7/i, false],
    ["needle(?!7)", /needle(?!7)/, true],
    ["^$", /^$/, true],
    ["7$", /7$/, true],
  ];
  for (const [pattern, regex, caseSensitive] of cases) {
    for (const context of [0, 2]) {
      it(`match the line-by-line reference for /${pattern}/ with ${context} context lines`, async () => {
        const result = await ws.call("grep", {
          pattern,
          path: "scan",
          case_sensitive: caseSensitive,
          context_lines: context,
          max_results: 1000,
        });
        const expected = reference(regex, context).map((line) =>
          line === "--" ? line : `scan/${line}`,
        );
        const lines = result.output.split("\n").slice(1);
        const shown = lines.filter((line) => !line.startsWith("["));
        const matches = expected.filter((line) => /^scan\/[^:]+:\d+:/.test(line)).length;
        if (matches > 1000) {
          expect(shown.filter((line) => /^scan\/[^:]+:\d+:/.test(line))).toHaveLength(1000);
          expect(shown).toEqual(expected.slice(0, shown.length));
        } else {
          expect(shown).toEqual(expected);
        }
      });
    }
  }
});

describe("grep worker module", () => {
  it("is started from the file next to the pool (the source file under the tests)", () => {
    expect(GREP_WORKER_URL.pathname.endsWith("/src/grep-worker.ts")).toBe(true);
    expect(existsSync(fileURLToPath(GREP_WORKER_URL))).toBe(true);
  });
});
