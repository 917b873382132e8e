import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolRegistry, type ToolResult } from "@xzatoma/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuiltinTools } from "./builtin-tools.js";
import { createWorkspaceContext } from "./workspace-context.js";

let base: string;
let root: string;
const signal = new AbortController().signal;

async function call(
  name: string,
  input: Record<string, unknown>,
  maxFileBytes?: number,
): Promise<ToolResult> {
  const registry = createToolRegistry();
  const tools = createBuiltinTools(
    createWorkspaceContext({ root }),
    maxFileBytes ? { readFile: { maxFileBytes } } : {},
  );
  for (const tool of tools) registry.register(tool);
  return registry.execute(
    { toolCallId: "1", toolName: name, input: JSON.stringify(input) },
    { signal },
  );
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-tools-")));
  root = path.join(base, "ws");
  await mkdir(path.join(root, "src", "deep"), { recursive: true });
  await writeFile(path.join(root, "README.md"), "line 1\nline 2\nline 3\n");
  await writeFile(path.join(root, "src", "index.ts"), "export {};\n");
  await writeFile(path.join(root, "src", "deep", "util.ts"), "// util\n");
  await writeFile(path.join(base, "secret.txt"), "top secret");
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("read_file", () => {
  it("reads a whole file and line ranges, open-ended included", async () => {
    expect((await call("read_file", { path: "README.md" })).output).toBe(
      "line 1\nline 2\nline 3\n",
    );
    expect(
      (await call("read_file", { path: "README.md", start_line: 2, end_line: 3 })).output,
    ).toBe("line 2\nline 3");
    expect((await call("read_file", { path: "README.md", start_line: 3 })).output).toBe("line 3");
    expect((await call("read_file", { path: "README.md", end_line: 1 })).output).toBe("line 1");
  });

  it("explains bad ranges, missing files, directories and the size limit", async () => {
    expect((await call("read_file", { path: "README.md", start_line: 9 })).error).toBe(
      "start_line 9 is past the end of 'README.md', which has 3 lines.",
    );
    expect(
      (await call("read_file", { path: "README.md", start_line: 3, end_line: 2 })).error,
    ).toContain("must not be greater");
    expect((await call("read_file", { path: "nope.txt" })).error).toContain(
      "'nope.txt' does not exist",
    );
    expect((await call("read_file", { path: "src" })).error).toContain("is a directory");
    expect((await call("read_file", { path: "README.md" }, 5)).error).toContain(
      "more than the limit of 5",
    );
  });

  it("returns an outline for long files and refuses binary files", async () => {
    await writeFile(
      path.join(root, "long.txt"),
      Array.from({ length: 600 }, (_, i) => `row ${i + 1}`).join("\n"),
    );
    const outline = await call("read_file", { path: "long.txt" });
    expect(outline.metadata).toMatchObject({ outline: true, totalLines: 600 });
    expect(outline.output).toContain("1 row 1\n");
    expect(outline.output).toContain("600 row 600");
    expect(outline.output).not.toContain("row 300\n");
    await writeFile(path.join(root, "image.bin"), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    expect((await call("read_file", { path: "image.bin" })).error).toContain("binary file");
  });

  it("refuses paths outside the workspace, including through symlinks", async () => {
    await symlink(path.join(base, "secret.txt"), path.join(root, "leak.txt"));
    for (const target of ["../secret.txt", path.join(base, "secret.txt"), "leak.txt"]) {
      const result = await call("read_file", { path: target });
      expect(result.success).toBe(false);
      expect(result.output).not.toContain("top secret");
      expect(result.metadata).toMatchObject({ refused: true });
    }
  });

  it("rejects unknown arguments so typos reach the model", async () => {
    const result = await call("read_file", { path: "README.md", lines: "1-2" });
    expect(result.error).toContain("Invalid input for 'read_file'");
  });
});

describe("list_directory", () => {
  it("lists one level, sorted, with kinds and sizes", async () => {
    const result = await call("list_directory", { path: "." });
    expect(result.output).toBe("README.md file 21\nsrc dir 0");
  });

  it("lists recursively and filters by wildcard on the file name", async () => {
    const all = await call("list_directory", { path: ".", recursive: true });
    expect(all.output.split("\n").map((line) => line.split(" ")[0])).toEqual([
      "README.md",
      "src",
      "src/deep",
      "src/deep/util.ts",
      "src/index.ts",
    ]);
    const typescript = await call("list_directory", {
      path: "src",
      recursive: true,
      pattern: "*.ts",
    });
    expect(typescript.output).toBe("deep/util.ts file 8\nindex.ts file 11");
    expect((await call("list_directory", { path: ".", pattern: "*.rs" })).output).toBe(
      "No entries in '.' match '*.rs'.",
    );
  });

  it("answers a pattern built to backtrack, against a long name, at once", async () => {
    // A regex for this pattern ran for seconds per name and blocked the event loop.
    await mkdir(path.join(root, "long"));
    await writeFile(path.join(root, "long", "a".repeat(200)), "");
    const result = await call("list_directory", { path: "long", pattern: `${"*a".repeat(8)}*b` });
    expect(result.output).toBe(`No entries in 'long' match '${"*a".repeat(8)}*b'.`);
    await rm(path.join(root, "long"), { recursive: true });
  });

  it("refuses to list outside the workspace and explains a file path", async () => {
    expect((await call("list_directory", { path: ".." })).success).toBe(false);
    expect((await call("list_directory", { path: "README.md" })).error).toContain(
      "is not a directory",
    );
    expect((await call("list_directory", { path: "missing" })).error).toContain("does not exist");
  });
});
