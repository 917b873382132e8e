import { readFile } from "node:fs/promises";
import { createToolRegistry } from "@xzatoma/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileTools } from "./file-tools.js";
import {
  createTestWorkspace,
  escapingPaths,
  type TestWorkspace,
} from "./file-tools.test-support.js";
import { createWorkspaceContext } from "./workspace-context.js";

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await createTestWorkspace();
});

afterEach(async () => {
  await ws.cleanup();
});

/** One call per tool, with `target` in every path argument. */
function callsWith(target: string): [string, Record<string, unknown>][] {
  return [
    ["write_file", { path: target, content: "x" }],
    ["edit_file", { path: target, mode: "append", content: "x" }],
    ["copy_path", { source: target, destination: "copied" }],
    ["copy_path", { source: "README.md", destination: target, overwrite: true }],
    ["move_path", { source: target, destination: "moved" }],
    ["move_path", { source: "README.md", destination: target, overwrite: true }],
    ["delete_path", { path: target, recursive: true }],
    ["create_directory", { path: target }],
    ["file_metadata", { path: target }],
    ["grep", { pattern: "secret", path: target }],
    ["diff_files", { path_a: target, path_b: "README.md" }],
    ["diff_files", { path_a: "README.md", path_b: target }],
  ];
}

describe("createFileTools", () => {
  it("builds the ten file tools with their access levels and JSON schemas", () => {
    const tools = createFileTools(createWorkspaceContext({ root: ws.root }));
    expect(tools.map((tool) => [tool.name, tool.access])).toEqual([
      ["write_file", "write"],
      ["edit_file", "write"],
      ["copy_path", "write"],
      ["move_path", "write"],
      ["delete_path", "write"],
      ["create_directory", "write"],
      ["file_metadata", "read"],
      ["find_path", "read"],
      ["grep", "read"],
      ["diff_files", "read"],
    ]);
    const registry = createToolRegistry();
    for (const tool of tools) registry.register(tool);
    const grep = registry.specifications().find((specification) => specification.name === "grep");
    expect(Object.keys((grep?.inputSchema["properties"] as object | undefined) ?? {})).toEqual([
      "pattern",
      "path",
      "include",
      "exclude",
      "case_sensitive",
      "context_lines",
      "max_results",
    ]);
  });

  it("refuses every escaping path in every tool as a result the model can read", async () => {
    for (const [label, escape] of Object.entries(escapingPaths(ws))) {
      for (const [name, input] of callsWith(escape)) {
        const result = await ws.call(name, input);
        expect(result.success, `${name} ${label}`).toBe(false);
        expect(result.error, `${name} ${label}`).toMatch(/outside the workspace/);
        expect(result.metadata, `${name} ${label}`).toMatchObject({ refused: true });
      }
    }
  });

  it("refuses the protected paths in every writing tool and leaves them unchanged", async () => {
    const contents: Record<string, string> = {
      ".git/hooks/pre-commit": "#!/bin/sh\n",
      ".git/config": "[core]\n",
      ".bashrc": "# rc\n",
    };
    for (const [file, content] of Object.entries(contents)) await ws.write(file, content);
    const readOnly = new Set(["file_metadata", "grep", "diff_files"]);
    for (const target of Object.keys(contents)) {
      for (const [name, input] of callsWith(target)) {
        // Copying a protected file elsewhere only reads it.
        if (readOnly.has(name) || (name === "copy_path" && input["source"] === target)) continue;
        const result = await ws.call(name, input);
        expect(result.error, `${name} ${JSON.stringify(input)}`).toContain("protected");
      }
    }
    for (const [file, content] of Object.entries(contents)) {
      expect(await readFile(ws.at(file), "utf8")).toBe(content);
    }
  });
});
