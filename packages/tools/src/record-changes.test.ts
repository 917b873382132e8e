// The change recorder sees every file tool's target as it was before the call changed it,
// and every change a sandboxed command's apply lets through (not those it refuses).
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolRegistry } from "@xzatoma/core";
import { afterEach, describe, expect, it } from "vitest";
import { createFileTools } from "./file-tools.js";
import { judgeSandboxChange } from "./sandbox-rules.js";
import { createWorkspaceContext, type ChangeRecorder } from "./workspace-context.js";

const made: string[] = [];
afterEach(async () => {
  for (const directory of made.splice(0)) await rm(directory, { recursive: true, force: true });
});

/** A workspace whose recorder notes each path with what it held at that moment. */
async function setUp() {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), "xz-record-changes-")));
  made.push(root);
  const seen: { path: string; held: string; tree: boolean }[] = [];
  const changes: ChangeRecorder = {
    recordBefore(absolutePath, options) {
      const held = existsSync(absolutePath)
        ? (() => {
            try {
              return readFileSync(absolutePath, "utf8");
            } catch {
              return "(directory)";
            }
          })()
        : "(nothing)";
      seen.push({ path: path.relative(root, absolutePath), held, tree: options?.tree === true });
    },
  };
  const workspace = createWorkspaceContext({ root, changes });
  const registry = createToolRegistry();
  for (const tool of createFileTools(workspace)) registry.register(tool);
  const call = (name: string, input: Record<string, unknown>) =>
    registry.execute(
      { toolCallId: "call", toolName: name, input: JSON.stringify(input) },
      { signal: new AbortController().signal, approve: () => Promise.resolve({ approved: true }) },
    );
  return { root, workspace, seen, call };
}

describe("recording changes before they happen", () => {
  it("records a written file's old content, and the directories a write creates", async () => {
    const { root, seen, call } = await setUp();
    await writeFile(path.join(root, "a.txt"), "old");
    await call("write_file", { path: "a.txt", content: "new" });
    await call("write_file", { path: "deep/er/b.txt", content: "made" });
    expect(await readFile(path.join(root, "a.txt"), "utf8")).toBe("new");
    expect(seen).toEqual([
      { path: "a.txt", held: "old", tree: false },
      { path: "deep", held: "(nothing)", tree: false },
      { path: path.join("deep", "er"), held: "(nothing)", tree: false },
      { path: path.join("deep", "er", "b.txt"), held: "(nothing)", tree: false },
    ]);
  });

  it("records the whole tree of a delete and both ends of a move", async () => {
    const { root, seen, call } = await setUp();
    await mkdir(path.join(root, "dir"));
    await writeFile(path.join(root, "dir", "x.txt"), "x");
    await writeFile(path.join(root, "m.txt"), "m");
    await call("delete_path", { path: "dir", recursive: true });
    await call("move_path", { source: "m.txt", destination: "n.txt" });
    expect(seen).toEqual([
      { path: "dir", held: "(directory)", tree: true },
      { path: "m.txt", held: "m", tree: true },
      { path: "n.txt", held: "(nothing)", tree: true },
    ]);
  });

  it("does not run a call whose record failed", async () => {
    const root = await realpath(await mkdtemp(path.join(tmpdir(), "xz-record-changes-")));
    made.push(root);
    const workspace = createWorkspaceContext({
      root,
      changes: {
        recordBefore() {
          throw new Error("the disk is full");
        },
      },
    });
    const registry = createToolRegistry();
    for (const tool of createFileTools(workspace)) registry.register(tool);
    await writeFile(path.join(root, "a.txt"), "old");
    const result = await registry.execute(
      {
        toolCallId: "call",
        toolName: "write_file",
        input: JSON.stringify({ path: "a.txt", content: "new" }),
      },
      { signal: new AbortController().signal, approve: () => Promise.resolve({ approved: true }) },
    );
    expect(JSON.stringify(result)).toContain("the disk is full");
    expect(await readFile(path.join(root, "a.txt"), "utf8")).toBe("old");
  });

  it("records what the sandbox's apply lets through, not what it refuses", async () => {
    const { root, workspace, seen } = await setUp();
    expect(judgeSandboxChange(workspace, "src/main.c", false, "write")).toBeUndefined();
    expect(judgeSandboxChange(workspace, ".git/hooks/pre-commit", true, "write")).toBeDefined();
    expect(seen.map((entry) => entry.path)).toEqual([path.join("src", "main.c")]);
    expect(root).not.toBe("");
  });
});
