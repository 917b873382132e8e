// A directory on the way to a path swapped for a symlink to outside the workspace after the
// guard resolved the path (another process, or a second agent working in the same
// workspace): the tools that read use what the descriptor they opened really is.
import { mkdir, readdir, readFile, rename, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ToolExecutionContext } from "@xzatoma/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "./file-tools.test-support.js";
import { createCopyPathTool } from "./copy-path.js";
import { createCreateDirectoryTool } from "./create-directory.js";
import { createDeletePathTool } from "./delete-path.js";
import { createMovePathTool } from "./move-path.js";
import { createWriteFileTool } from "./write-file.js";
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

/**
 * The workspace, with `d` swapped for a link to outside right after the guard resolves
 * `input` (or its directory), for a read or for a write, the `nth` time.
 */
function racing(input: string, nth = 1): WorkspaceContext {
  const workspace = createWorkspaceContext({ root: ws.root });
  const guard = workspace.pathGuard;
  let seen = 0;
  const swapAfter =
    (resolve: (given: string) => Promise<string>) =>
    async (given: string): Promise<string> => {
      const real = await resolve(given);
      const relative = path.relative(ws.root, path.resolve(ws.root, given));
      if ((relative === input || relative === path.dirname(input)) && ++seen === nth) {
        await rename(ws.at("d"), ws.at("d-before"));
        await symlink(ws.outside, ws.at("d"));
      }
      return real;
    };
  return {
    ...workspace,
    pathGuard: {
      ...guard,
      resolve: swapAfter((given) => guard.resolve(given)),
      resolveForWrite: swapAfter((given) => guard.resolveForWrite(given)),
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

  it("delete_path refuses instead of deleting the file outside", async () => {
    // After the tool resolved the path and its directory: the swap meets the delete itself.
    const tool = createDeletePathTool(racing("d/secret.txt", 2));
    const result = await tool.execute({ path: "d/secret.txt" }, context);
    expect(result.error).toBe(
      "'d/secret.txt' changed while it was being deleted and now points outside the workspace; nothing was deleted.",
    );
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("top secret\n");
    expect(await readFile(ws.at("d-before/secret.txt"), "utf8")).toBe("inside\n");
  });

  it("a write tool whose path's directory changed while it was checked refuses, not throws", async () => {
    const tool = createDeletePathTool(racing("d/secret.txt"));
    const result = await tool.execute({ path: "d/secret.txt" }, context);
    expect(result.error).toBe(
      "'d/secret.txt' changed while it was being checked and now points outside the workspace.",
    );
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("top secret\n");
  });

  it("create_directory, write_file, move_path and copy_path make nothing outside", async () => {
    const made = await createCreateDirectoryTool(racing("d/new/x", 2)).execute(
      { path: "d/new/x" },
      context,
    );
    expect(made.success).toBe(false);
    await rename(ws.at("d-before"), ws.at("d-made"));
    await rename(ws.at("d"), ws.at("d-link"));
    await mkdir(ws.at("d"));
    const written = await createWriteFileTool(racing("d/sub/w.txt", 1)).execute(
      { path: "d/sub/w.txt", content: "w" },
      context,
    );
    expect(written.success).toBe(false);
    await rename(ws.at("d-before"), ws.at("d-written"));
    await rename(ws.at("d"), ws.at("d-link2"));
    await mkdir(ws.at("d"));
    await writeFile(ws.at("payload.txt"), "payload\n");
    const moved = await createMovePathTool(racing("d/in.txt", 2)).execute(
      { source: "payload.txt", destination: "d/in.txt" },
      context,
    );
    expect(moved.success).toBe(false);
    await rename(ws.at("d-before"), ws.at("d-moved"));
    await rename(ws.at("d"), ws.at("d-link3"));
    await mkdir(ws.at("d"));
    const copied = await createCopyPathTool(racing("d/copied.txt", 2)).execute(
      { source: "payload.txt", destination: "d/copied.txt" },
      context,
    );
    expect(copied.success).toBe(false);
    expect((await readdir(ws.outside)).sort()).toEqual(["secret.txt"]);
    expect(await readFile(ws.at("payload.txt"), "utf8")).toBe("payload\n");
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
    const deleted = await createDeletePathTool(workspace).execute(
      { path: "d/secret.txt" },
      context,
    );
    expect(deleted.output).toBe("Deleted d/secret.txt (1 item).");
    await expect(readFile(ws.at("d/secret.txt"))).rejects.toThrow("ENOENT");
  });
});
