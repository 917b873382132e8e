// The grep workers skip ahead by whole chunks and jump between candidate lines; this
// compares their output with a plain line-by-line reference on files of several chunks.
import { existsSync } from "node:fs";
import { mkdir, rename, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "./file-tools.test-support.js";
import { GREP_WORKER_URL } from "./grep-pool.js";
import { countNewlines, createGrepScanner } from "./grep-worker.js";
import { GREP_COUNTERS, type GrepFileMessage } from "./grep-protocol.js";

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
  const words = [
    "alpha",
    "beta",
    "needle",
    "nEEdle7",
    "needle7",
    "hay",
    "",
    "neeedle3",
    "ñeedle é",
  ];
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
    ["ñeedle é", /ñeedle é/, true],
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

describe("a regex that matches the empty text", () => {
  it("finds the empty lines that are there, and none after a file's last line", async () => {
    await ws.write("empty/a.txt", "a\n\nb\n");
    await ws.write("empty/b.txt", "no empty line\n");
    const result = await ws.call("grep", { pattern: "^$", path: "empty" });
    expect(result.output.split("\n").slice(1)).toEqual(["empty/a.txt:2: "]);
  });
});

describe("plain text searched as bytes", () => {
  it("shows the lines decoded text would show: invalid bytes, CRLF, context across chunks", async () => {
    // 0xff 0xfe are not UTF-8: a line shown holds U+FFFD for each, as decoding the file would.
    const invalid = Buffer.concat([
      Buffer.from("first\r\n"),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(" après\r\nlast line ñeedle\r\n"),
    ]);
    await ws.write("bytes/invalid.txt", invalid);
    const found = await ws.call("grep", { pattern: "après", path: "bytes" });
    expect(found.output.split("\n").slice(1)).toEqual(["bytes/invalid.txt:2: \uFFFD\uFFFD après"]);
    const context = await ws.call("grep", { pattern: "ñeedle", path: "bytes", context_lines: 1 });
    expect(context.output.split("\n").slice(1)).toEqual([
      "bytes/invalid.txt-2- \uFFFD\uFFFD après",
      "bytes/invalid.txt:3: last line ñeedle",
    ]);
    // A match at the start of a chunk after a 300 KiB line, with its context in the chunk before.
    await ws.write("bytes/long.txt", `${"x".repeat(300 * 1024)}\nbefore\nñeedle here\nafter\n`);
    const long = await ws.call("grep", {
      pattern: "ñeedle here",
      path: "bytes/long.txt",
      context_lines: 1,
    });
    expect(long.output.split("\n").slice(1)).toEqual([
      "bytes/long.txt-2- before",
      "bytes/long.txt:3: ñeedle here",
      "bytes/long.txt-4- after",
    ]);
  });
});

describe("a file the walk saw, opened after a directory on its way was swapped", () => {
  it("is not read when the directory became a link to outside the workspace", async () => {
    await mkdir(ws.at("swap/d"), { recursive: true });
    await writeFile(ws.at("swap/d/notes.txt"), "needle inside\n");
    const outside = path.join(ws.base, "outside-swap");
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(outside, "notes.txt"), "needle outside\n");
    const shared = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * (GREP_COUNTERS.slots + 1));
    const posted: GrepFileMessage[] = [];
    const search = createGrepScanner()(
      {
        root: ws.root,
        source: "needle",
        flags: "",
        prefilter: true,
        literal: "needle",
        required: null,
        contextLines: 0,
        maxMatches: 100,
        maxFileBytes: 1024 * 1024,
        maxLineChars: 500,
        readHardLinks: false,
        shared,
        counters: GREP_COUNTERS,
        slot: 0,
      },
      (message) => posted.push(message),
    );
    search(ws.at("swap/d/notes.txt"), 0);
    expect(posted.map((message) => message.records)).toEqual([[[1, 1, "needle inside"]]]);
    // Found by the walk as swap/d/notes.txt; then d is replaced by a link to outside.
    await rename(ws.at("swap/d"), ws.at("swap/d-before"));
    await symlink(outside, ws.at("swap/d"));
    search(ws.at("swap/d/notes.txt"), 1);
    expect(posted).toHaveLength(1);
    expect(new Int32Array(shared)[GREP_COUNTERS.unreadable]).toBe(1);
  });
});

describe("countNewlines", () => {
  it("counts the newline bytes of any range, at any alignment, as a loop over bytes does", () => {
    const next = random(7);
    const bytes = Buffer.alloc(600);
    for (let round = 0; round < 500; round++) {
      for (let at = 0; at < bytes.length; at++)
        bytes[at] =
          next() < 0.2 ? 10 : [0x0a0b, 0x8a, 0xff, 0x00, 0x41][Math.floor(next() * 5)]! & 0xff;
      const from = Math.floor(next() * 300);
      const to = from + Math.floor(next() * 300);
      const view = bytes.subarray(Math.floor(next() * 4));
      let expected = 0;
      for (let at = from; at < to; at++) if (view[at] === 10) expected++;
      expect(countNewlines(view, from, to), `[${from}, ${to}) at offset ${view.byteOffset}`).toBe(
        expected,
      );
    }
  });
});

describe("grep worker module", () => {
  it("is started from the file next to the pool (the source file under the tests)", () => {
    expect(GREP_WORKER_URL.pathname.endsWith("/src/grep-worker.ts")).toBe(true);
    expect(existsSync(fileURLToPath(GREP_WORKER_URL))).toBe(true);
  });
});
