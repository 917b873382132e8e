// The file tools through a workspace's `files` port (an editor's buffers): the port sees
// only paths the guard accepted, and the disk is left alone.
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolRegistry, type ToolResult } from "@xzatoma/core";
import { createFileTools } from "./file-tools.js";
import { createReadFileTool } from "./read-file.js";
import { createWorkspaceContext, type FileAccess } from "./workspace-context.js";

let base: string;
let root: string;
let buffers: Map<string, string>;
let seen: { op: "read" | "write"; path: string }[];
let call: (name: string, input: Record<string, unknown>) => Promise<ToolResult>;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-file-access-")));
  root = path.join(base, "ws");
  await mkdir(path.join(root, ".git"), { recursive: true });
  await mkdir(path.join(base, "outside"));
  await writeFile(path.join(base, "outside", "secret.txt"), "top secret\n");
  await symlink(path.join(base, "outside"), path.join(root, "link-out"));
  await writeFile(path.join(root, "draft.md"), "on disk\n");
  buffers = new Map([[path.join(root, "draft.md"), "in the buffer\nsecond line\n"]]);
  seen = [];
  const files: FileAccess = {
    readTextFile(absolute) {
      seen.push({ op: "read", path: absolute });
      const text = buffers.get(absolute);
      return text === undefined
        ? Promise.reject(new Error(`no buffer for ${absolute}`))
        : Promise.resolve(text);
    },
    writeTextFile(absolute, content) {
      seen.push({ op: "write", path: absolute });
      buffers.set(absolute, content);
      return Promise.resolve();
    },
  };
  const workspace = createWorkspaceContext({ root, files });
  const registry = createToolRegistry();
  for (const tool of [createReadFileTool(workspace), ...createFileTools(workspace)])
    registry.register(tool);
  let calls = 0;
  call = (name, input) =>
    registry.execute(
      { toolCallId: String(++calls), toolName: name, input: JSON.stringify(input) },
      { signal: new AbortController().signal, approve: () => Promise.resolve({ approved: true }) },
    );
});

afterEach(() => rm(base, { recursive: true, force: true }));

describe("file tools through a workspace's files port", () => {
  it("read_file returns the buffer's text, not the disk's, with line ranges", async () => {
    const whole = await call("read_file", { path: "draft.md" });
    expect(whole).toMatchObject({ success: true, output: "in the buffer\nsecond line\n" });
    const range = await call("read_file", { path: "draft.md", start_line: 2, end_line: 2 });
    expect(range).toMatchObject({ success: true, output: "second line" });
    expect(seen).toEqual([
      { op: "read", path: path.join(root, "draft.md") },
      { op: "read", path: path.join(root, "draft.md") },
    ]);
  });

  it("write_file and edit_file write through the port; the disk keeps its content", async () => {
    const created = await call("write_file", { path: "new/made.md", content: "made\n" });
    expect(created.success).toBe(true);
    expect(buffers.get(path.join(root, "new", "made.md"))).toBe("made\n");
    await expect(readFile(path.join(root, "new", "made.md"), "utf8")).rejects.toThrow();

    const edited = await call("edit_file", {
      path: "draft.md",
      mode: "edit",
      old_text: "second line",
      content: "edited line",
    });
    expect(edited.success).toBe(true);
    expect(buffers.get(path.join(root, "draft.md"))).toBe("in the buffer\nedited line\n");
    expect(await readFile(path.join(root, "draft.md"), "utf8")).toBe("on disk\n");
  });

  it("the path guard refuses escapes and protected paths before the port is asked", async () => {
    for (const escaping of ["../outside/secret.txt", "link-out/secret.txt"]) {
      const read = await call("read_file", { path: escaping });
      expect(read.success).toBe(false);
      expect(read.error).toMatch(/outside the workspace/);
      expect(read.output).not.toContain("top secret");
      const written = await call("write_file", { path: escaping, content: "x" });
      expect(written.success).toBe(false);
    }
    const hook = await call("write_file", { path: ".git/hooks/pre-commit", content: "x" });
    expect(hook.success).toBe(false);
    expect(seen).toEqual([]);
  });

  it("a failing editor read is a failed call the model can read", async () => {
    await writeFile(path.join(root, "closed.md"), "disk only\n");
    const result = await call("read_file", { path: "closed.md" });
    expect(result.success).toBe(false);
    expect(result.error ?? result.output).toContain("could not be read through the editor");
  });
});
