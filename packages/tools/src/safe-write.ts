import { constants } from "node:fs";
import { lstat } from "node:fs/promises";
import path from "node:path";
import { isXzatomaError } from "@xzatoma/core";
import { makeDirectories } from "./anchored-path.js";
import type { WorkspaceContext } from "./workspace-context.js";

/** The outcome of {@link writeFileSafely}. */
export type WriteOutcome =
  | { readonly ok: true; readonly bytes: number }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** Words a failed write for the model, naming the path it was given. */
export function describeWriteError(error: unknown, input: string): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case "EEXIST":
      return `'${input}' already exists.`;
    case "ENXIO":
      return `'${input}' is not a regular file; it was not written.`;
    case "EISDIR":
      return `'${input}' is a directory; give the path of a file.`;
    case "ENOTDIR":
      return `A part of '${input}' is a file, not a directory; choose another path.`;
    case "ELOOP":
      return `'${input}' changed into a symlink after it was checked; it was not written.`;
    case "EACCES":
    case "EPERM":
      return `'${input}' cannot be written: permission denied.`;
    case "ENOSPC":
      return `'${input}' could not be written: the disk is full.`;
    default:
      return `'${input}' could not be written: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Writes `content` to a file of the workspace: creates the parent directories, opens the
 * file through the path guard (O_NOFOLLOW, the opened descriptor's real path re-checked,
 * protected paths refused) and only then truncates it, so a path swapped before the open
 * check is never emptied. Refuses files with more than one hard link: writing one would
 * change the other names too, possibly outside the workspace. `exclusive` fails with
 * EEXIST when the file exists. With the workspace's `files` (an editor's buffers), the
 * same guard and checks run, and the editor writes the text.
 */
export async function writeFileSafely(
  workspace: WorkspaceContext,
  input: string,
  content: string,
  options: { readonly exclusive: boolean },
): Promise<WriteOutcome> {
  const failed = (error: unknown): WriteOutcome => {
    if (isXzatomaError(error)) return { ok: false, code: "REFUSED", message: error.message };
    const code = String((error as { code?: unknown }).code ?? "UNKNOWN");
    return { ok: false, code, message: describeWriteError(error, input) };
  };
  if (workspace.files) {
    try {
      const real = await workspace.pathGuard.resolveForWrite(input);
      const existing = await lstat(real).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      });
      if (existing && options.exclusive)
        return {
          ok: false,
          code: "EEXIST",
          message: describeWriteError({ code: "EEXIST" }, input),
        };
      if (existing && !existing.isFile())
        return { ok: false, code: "EISDIR", message: `'${input}' is not a regular file.` };
      if (existing && existing.nlink > 1) return hardLinked(input, existing.nlink);
      await workspace.files.writeTextFile(real, content);
      return { ok: true, bytes: Buffer.byteLength(content, "utf8") };
    } catch (error) {
      return failed(error);
    }
  }
  let handle;
  try {
    const real = await workspace.pathGuard.resolveForWrite(input);
    await makeDirectories(workspace, path.dirname(real));
    // O_NONBLOCK: a FIFO planted at the path fails at once instead of blocking a thread.
    const flags =
      constants.O_WRONLY |
      constants.O_CREAT |
      constants.O_NONBLOCK |
      (options.exclusive ? constants.O_EXCL : 0);
    ({ handle } = await workspace.pathGuard.open(input, flags, 0o666));
  } catch (error) {
    return failed(error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      return { ok: false, code: "EISDIR", message: `'${input}' is not a regular file.` };
    }
    if (stats.nlink > 1) return hardLinked(input, stats.nlink);
    await handle.truncate(0);
    const buffer = Buffer.from(content, "utf8");
    await handle.writeFile(buffer);
    return { ok: true, bytes: buffer.length };
  } catch (error) {
    return failed(error);
  } finally {
    await handle.close();
  }
}

function hardLinked(input: string, links: number): WriteOutcome {
  return {
    ok: false,
    code: "EMLINK",
    message: `'${input}' has ${links} hard links; writing it would also change the other linked names, possibly outside the workspace. Delete it and create it again instead.`,
  };
}
