// A directory on the way to a path swapped for a symlink to outside the workspace after the
// guard resolved the path (another process, or a second agent working in the same
// workspace): the tools that read use what the descriptor they opened really is.
import { mkdir, rename, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ToolExecutionContext } from "@xzatoma/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "./file-tools.test-support.js";
import { createListDirectoryTool } from "./list-directory.js";
import { createReadFileTool } from "./read-file.js";
import { createWorkspaceContext, type WorkspaceContext } from "./workspace-context.js";

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await createTestWorkspace();
  await mkdir(ws.at("d"));
  await writeFile(ws.at("d/secret.txt"), "inside\n");
});

afterEach(async () => {
  await ws.cleanup();
});

/** The workspace, with `d` swapped for a link to outside right after the guard resolves `input`. */
function racing(input: string): WorkspaceContext {
  const workspace = createWorkspaceContext({ root: ws.root });
  const guard = workspace.pathGuard;
  let swapped = false;
  return {
    ...workspace,
    pathGuard: {
      ...guard,
      async resolve(given: string) {
        const real = await guard.resolve(given);
        if (!swapped && given === input) {
          swapped = true;
          await rename(ws.at("d"), ws.at("d-before"));
          await symlink(ws.outside, ws.at("d"));
        }
        return real;
      },
    },
  };
}

const context = { signal: new AbortController().signal } as ToolExecutionContext;

describe("a directory swapped for a link after the path was checked", () => {
  it("read_file refuses instead of reading the file outside", async () => {
    await writeFile(path.join(ws.outside, "secret.txt"), "top secret\n");
    const tool = createReadFileTool(racing("d/secret.txt"));
    const result = await tool.execute({ path: "d/secret.txt" }, context);
    expect(result.success).toBe(false);
    expect(result.error).toBe(
      "'d/secret.txt' changed while it was being opened and now points outside the workspace; it was not read.",
    );
  });

  it("list_directory refuses instead of listing the directory outside", async () => {
    const tool = createListDirectoryTool(racing("d"));
    const result = await tool.execute({ path: "d" }, context);
    expect(result.success).toBe(false);
    expect(result.error).toBe(
      "'d' changed while it was being listed and now points outside the workspace; nothing was listed.",
    );
    expect(result.output).toBe("");
  });

  it("both work as before when nothing changes", async () => {
    const workspace = createWorkspaceContext({ root: ws.root });
    const read = await createReadFileTool(workspace).execute({ path: "d/secret.txt" }, context);
    expect(read.output).toContain("inside");
    const listed = await createListDirectoryTool(workspace).execute(
      { path: ".", recursive: true },
      context,
    );
    expect(listed.output).toContain("d/secret.txt file 7");
    expect(listed.output).toContain("link-out symlink 0");
  });
});
