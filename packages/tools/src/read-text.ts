import { constants } from "node:fs";
import { lstat } from "node:fs/promises";
import { isXzatomaError } from "@xzatoma/core";
import { describeFsError, recordRead } from "./tool-paths.js";
import type { WorkspaceContext } from "./workspace-context.js";

const BINARY_SNIFF_BYTES = 8192;

/** A text file read through the guard, or why it could not be. */
export type TextRead =
  | { readonly ok: true; readonly text: string; readonly bytes: number; readonly links: number }
  | { readonly ok: false; readonly message: string };

/**
 * Reads a whole UTF-8 text file through the path guard (O_NOFOLLOW, the descriptor's real
 * path re-checked). Refuses directories, special files, binary files (a NUL byte in the
 * first 8 KiB) and files over `maxBytes`, each with a message naming `input`.
 */
export async function readTextFile(
  workspace: WorkspaceContext,
  input: string,
  maxBytes: number,
): Promise<TextRead> {
  if (workspace.files) return readThroughEditor(workspace, workspace.files, input, maxBytes);
  let handle;
  try {
    // O_NONBLOCK: a FIFO at the path fails instead of blocking a thread forever.
    let opened: string;
    ({ handle, path: opened } = await workspace.pathGuard.open(
      input,
      constants.O_RDONLY | constants.O_NONBLOCK,
    ));
    await recordRead(workspace, opened);
  } catch (error) {
    return {
      ok: false,
      message: isXzatomaError(error) ? error.message : describeFsError(error, input),
    };
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory())
      return { ok: false, message: `'${input}' is a directory, not a file.` };
    if (!stats.isFile()) return { ok: false, message: `'${input}' is not a regular file.` };
    if (stats.size > maxBytes) {
      return {
        ok: false,
        message: `'${input}' has ${stats.size} bytes, more than the limit of ${maxBytes}.`,
      };
    }
    const buffer = await handle.readFile();
    if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      return {
        ok: false,
        message: `'${input}' is a binary file; only text files can be used here.`,
      };
    }
    return { ok: true, text: buffer.toString("utf8"), bytes: buffer.length, links: stats.nlink };
  } finally {
    await handle.close();
  }
}

/** {@link readTextFile} through the editor's file access, after the same guard. */
async function readThroughEditor(
  workspace: WorkspaceContext,
  files: NonNullable<WorkspaceContext["files"]>,
  input: string,
  maxBytes: number,
): Promise<TextRead> {
  let real: string;
  let text: string;
  try {
    real = await workspace.pathGuard.resolve(input);
    await recordRead(workspace, real);
    text = await files.readTextFile(real);
  } catch (error) {
    return {
      ok: false,
      message: isXzatomaError(error)
        ? error.message
        : `'${input}' could not be read through the editor: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > maxBytes)
    return {
      ok: false,
      message: `'${input}' has ${bytes} bytes, more than the limit of ${maxBytes}.`,
    };
  // The disk's link count still matters: writing a hard-linked file changes its other names.
  const links = (await lstat(real).catch(() => undefined))?.nlink ?? 1;
  return { ok: true, text, bytes, links };
}
