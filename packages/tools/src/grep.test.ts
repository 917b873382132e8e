import { createToolRegistry } from "@xzatoma/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileTools } from "./file-tools.js";
import {
  createTestWorkspace,
  escapingPaths,
  type TestWorkspace,
} from "./file-tools.test-support.js";
import { createWorkspaceContext } from "./workspace-context.js";
import { searchWorkers } from "./grep.js";

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await createTestWorkspace({ grep: { maxFileBytes: 4096, perFileTimeoutMs: 300 } });
  await ws.write(".gitignore", "ignored/\n");
  await ws.write("src/app.ts", "import x from 'y';\nconst needle = 1;\nexport {};\n");
  await ws.write("src/util.ts", "// Needle in a comment\nfunction find() {}\nreturn needle;\n");
  await ws.write("src/app.test.ts", "test('needle', () => {});\n");
  await ws.write(
    "docs/guide.md",
    "line 1\nline 2\nneedle here\nline 4\nline 5\nline 6\nline 7\nneedle again\nline 9\n",
  );
  await ws.write("ignored/hidden.ts", "const needle = 'ignored';\n");
  await ws.write("bin/blob.dat", Buffer.from("needle\0binary\n"));
  await ws.write("big/huge.txt", `needle\n${"x".repeat(5000)}\n`);
});

afterEach(async () => {
  await ws.cleanup();
});

describe("grep", () => {
  it("lists matches as path:line: text, respecting .gitignore and skipping binary and big files", async () => {
    const result = await ws.call("grep", { pattern: "needle" });
    expect(result.output).toBe(
      [
        "Found 5 matches in 4 files (searched 9 files in .):",
        "docs/guide.md:3: needle here",
        "docs/guide.md:8: needle again",
        "src/app.test.ts:1: test('needle', () => {});",
        "src/app.ts:2: const needle = 1;",
        "src/util.ts:3: return needle;",
        "[Skipped 1 binary file, 1 file over 4096 bytes.]",
      ].join("\n"),
    );
    expect(result.metadata).toMatchObject({ matches: 5, files: 4, searched: 9, truncated: false });
    expect(ws.approvals).toEqual([]);
  });

  it("shows context lines and separates groups", async () => {
    const result = await ws.call("grep", { pattern: "needle", path: "docs", context_lines: 1 });
    expect(result.output).toBe(
      [
        "Found 2 matches in 1 file (searched 1 file in docs):",
        "docs/guide.md-2- line 2",
        "docs/guide.md:3: needle here",
        "docs/guide.md-4- line 4",
        "--",
        "docs/guide.md-7- line 7",
        "docs/guide.md:8: needle again",
        "docs/guide.md-9- line 9",
      ].join("\n"),
    );
    const touching = await ws.call("grep", { pattern: "needle", path: "docs", context_lines: 2 });
    expect(touching.output).not.toContain("--");
    const merged = await ws.call("grep", {
      pattern: "needle",
      path: "docs/guide.md",
      context_lines: 3,
    });
    expect(merged.output).not.toContain("--");
    expect(merged.output.split("\n")).toHaveLength(10);
  });

  it("filters with include and exclude globs and ignores case on request", async () => {
    const included = await ws.call("grep", { pattern: "needle", include: "*.ts" });
    expect(included.metadata).toMatchObject({ matches: 3, files: 3 });
    const excluded = await ws.call("grep", {
      pattern: "needle",
      include: "src/**",
      exclude: "*.test.ts",
    });
    expect(excluded.output).toBe(
      "Found 2 matches in 2 files (searched 3 files in .):\nsrc/app.ts:2: const needle = 1;\nsrc/util.ts:3: return needle;",
    );
    const noDocs = await ws.call("grep", { pattern: "needle", exclude: "docs" });
    expect(noDocs.output).not.toContain("docs/");
    const anyCase = await ws.call("grep", {
      pattern: "NEEDLE",
      path: "src/util.ts",
      case_sensitive: false,
    });
    expect(anyCase.metadata).toMatchObject({ matches: 2 });
  });

  it("searches an ignored directory when the path names it", async () => {
    expect((await ws.call("grep", { pattern: "needle", path: "ignored" })).output).toContain(
      "ignored/hidden.ts:1: const needle = 'ignored';",
    );
  });

  it("explains invalid patterns, globs and paths", async () => {
    expect((await ws.call("grep", { pattern: "(unclosed" })).error).toBe(
      "The pattern '(unclosed' is not a valid JavaScript regular expression (Invalid regular expression: /(unclosed/m: Unterminated group). Escape special characters such as ( [ { . * + ? with a backslash, or search for plain text.",
    );
    expect((await ws.call("grep", { pattern: "x", include: "[z-a]" })).error).toContain(
      "in a character class runs backwards",
    );
    expect((await ws.call("grep", { pattern: "x", path: "nope" })).error).toBe(
      "'nope' does not exist. Use find_path or list_directory to find what to search.",
    );
    expect((await ws.call("grep", { pattern: "zzz" })).output).toBe(
      "No matches for 'zzz' in . (searched 9 files).\n[Skipped 1 binary file, 1 file over 4096 bytes.]",
    );
  });

  it("stops at max_results with a note", async () => {
    await ws.write("many.txt", Array.from({ length: 50 }, (_, index) => `hit ${index}`).join("\n"));
    const result = await ws.call("grep", { pattern: "^hit \\d+$", max_results: 3 });
    // The workers search the files in the walk's order and stop at the limit: whether they
    // reached the binary and the big file before it depends on that order.
    const [found, skipped, ...rest] = result.output.split("\n[");
    expect(found).toBe(
      [
        "Found 3 matches in 1 file (searched 10 files in .):",
        "many.txt:1: hit 0",
        "many.txt:2: hit 1",
        "many.txt:3: hit 2",
      ].join("\n"),
    );
    expect(skipped).toBe(
      "Showing the first 3 matches; there are more. Narrow the pattern, path or include glob, or raise max_results (at most 1000).]",
    );
    expect(rest.join("\n[")).toMatch(/^(|Skipped [^\]]+\.\])$/);
    expect(result.metadata).toMatchObject({ truncated: true });
  });

  it("searches files handed to the workers while the walk goes on, in path order", async () => {
    // More files than one batch, in directories the walk visits in no particular order.
    const names: string[] = [];
    for (let index = 0; index < 700; index++) {
      const name = `many/d${index % 7}/f${String(index).padStart(3, "0")}.txt`;
      names.push(name);
      await ws.write(name, `line\nfound ${index}\n`);
    }
    const expected = names.sort().map((name) => `${name}:2: found ${Number(name.slice(-7, -4))}`);
    // A regex runs on the workers only; plain text on the main thread too, once walked, and
    // on the main thread alone while the pool has no worker started.
    for (const [call, pattern] of [
      ["cold pool, plain text", "found "],
      ["the worker started after the first call, regex", "found \\d+"],
      ["warm pool, regex", "found \\d+"],
      ["warm pool, plain text", "found "],
    ] as const) {
      const result = await ws.call("grep", { pattern, path: "many", max_results: 1000 });
      expect(result.output.split("\n").slice(1), call).toEqual(expected);
      expect(result.metadata, call).toMatchObject({ matches: 700 });
    }
  });

  it("gives a search workers by what it searches and how many the pool has started", () => {
    // A single file: one, where the watchdog can stop a regex.
    expect(searchWorkers(false, false, 4, 0)).toBe(1);
    // Plain text on a cold pool: the main thread alone.
    expect(searchWorkers(true, true, 4, 0)).toBe(0);
    // Otherwise one more than the pool has started, up to the most.
    expect(searchWorkers(true, false, 4, 0)).toBe(1);
    expect(searchWorkers(true, false, 4, 2)).toBe(3);
    expect(searchWorkers(true, false, 4, 4)).toBe(4);
  });

  it("handles lookarounds line by line", async () => {
    await ws.write("look.txt", "foobar\nfoo\nfoobaz\nbarfoo\n");
    const result = await ws.call("grep", { pattern: "foo(?!bar)", path: "look.txt" });
    expect(result.output).toBe(
      "Found 3 matches in 1 file (searched 1 file in look.txt):\nlook.txt:2: foo\nlook.txt:3: foobaz\nlook.txt:4: barfoo",
    );
    const behind = await ws.call("grep", { pattern: "(?<=bar)foo$", path: "look.txt" });
    expect(behind.metadata).toMatchObject({ matches: 1 });
  });

  it("gives up on files where the pattern backtracks catastrophically", async () => {
    await ws.write("evil/one.txt", `${"a".repeat(32)}!\n`);
    const once = await ws.call("grep", { pattern: "^(a+)+$", path: "evil" });
    expect(once.output).toBe(
      "No matches for '^(a+)+$' in evil (searched 1 file).\n[Gave up on 1 file where the pattern took longer than 300 ms: evil/one.txt. Simplify the pattern to search them.]",
    );
    await ws.write("evil/two.txt", `${"a".repeat(32)}!\n`);
    await ws.write("evil/three.txt", `${"a".repeat(32)}!\n`);
    await ws.write("evil/zz-fine.txt", "aaa\n");
    const many = await ws.call("grep", { pattern: "^(a+)+$", path: "evil" });
    expect(many.error).toMatch(
      /^The pattern '\^\(a\+\)\+\$' took longer than 300 ms on 3 files \(.*\), which suggests catastrophic backtracking\./,
    );
  }, 20_000);

  it("stops its workers when the call times out or is cancelled", async () => {
    await ws.write("evil/one.txt", `${"a".repeat(40)}!\n`);
    const registry = createToolRegistry({ defaultTimeoutMs: 300 });
    const tools = createFileTools(createWorkspaceContext({ root: ws.root }), {
      grep: { perFileTimeoutMs: 60_000 },
    });
    for (const tool of tools) registry.register(tool);
    const started = performance.now();
    const result = await registry.execute(
      {
        toolCallId: "1",
        toolName: "grep",
        input: JSON.stringify({ pattern: "^(a+)+$", path: "evil" }),
      },
      { signal: new AbortController().signal },
    );
    expect(result.error).toBe(
      "'grep' did not finish within 300 ms and was stopped. Try a smaller request.",
    );
    // The workers were stopped: the pattern alone would run for the full 60 s per file.
    expect(performance.now() - started).toBeLessThan(30_000);
    // The same tool still works afterwards, on fresh workers (given time to start them: a
    // loaded machine can take more than 300 ms).
    const patient = createToolRegistry({ defaultTimeoutMs: 60_000 });
    for (const tool of tools) patient.register(tool);
    const after = await patient.execute(
      {
        toolCallId: "2",
        toolName: "grep",
        input: JSON.stringify({ pattern: "needle", path: "docs" }),
      },
      { signal: new AbortController().signal },
    );
    expect(after.metadata).toMatchObject({ matches: 2 });
  });

  it("does not search files that look secret, at any depth and in any case", async () => {
    await ws.write(".env", "needle=1\n");
    await ws.write("deploy/Server.KEY", "needle\n");
    await ws.write("home/.aws/config", "needle\n");
    await ws.write("config/.env.example", "needle=\n");
    const result = await ws.call("grep", { pattern: "needle", max_results: 1000 });
    expect(result.output).toContain("config/.env.example:1: needle=");
    expect(result.output).not.toMatch(/^(\.env|deploy\/Server\.KEY|home\/\.aws\/config):/m);
    const note = /\[Not searched, because they look like they hold secrets: (.*)\. Search/.exec(
      result.output,
    );
    expect(note?.[1]?.split(", ").sort()).toEqual([
      ".env",
      "deploy/Server.KEY",
      "home/.aws/config",
    ]);
  });

  it("never follows symlinks out of the workspace and refuses escaping paths", async () => {
    expect((await ws.call("grep", { pattern: "top secret" })).metadata).toMatchObject({
      matches: 0,
    });
    for (const [label, escape] of Object.entries(escapingPaths(ws))) {
      const result = await ws.call("grep", { pattern: "secret", path: escape });
      expect(result.error, label).toMatch(/outside the workspace/);
    }
  });
});
