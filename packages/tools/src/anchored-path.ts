import { constants, existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PathOutsideWorkspaceError } from "@xzatoma/safety";
import type { WorkspaceContext } from "./workspace-context.js";

/** Linux names an open descriptor's directory `/proc/self/fd/N`, which no rename can move. */
const PROC_FD = existsSync("/proc/self/fd");

/**
 * Runs `use` with a path to `entry` (a path the guard resolved: a real parent directory and
 * a last name) anchored to its parent directory as the guard opened and checked it: on Linux
 * `/proc/self/fd/N/name`, so a directory on the way swapped for a link after the check
 * cannot redirect the operation outside the workspace. Rejects with a
 * `PathOutsideWorkspaceError` when the parent is not where it was resolved to be.
 * Elsewhere `use` gets `entry` itself.
 */
export async function withCheckedParent<T>(
  workspace: WorkspaceContext,
  entry: string,
  use: (anchored: string) => Promise<T>,
): Promise<T> {
  const parent = path.dirname(entry);
  const opened = await workspace.pathGuard.open(parent, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    if (opened.path !== parent)
      throw new PathOutsideWorkspaceError(
        `'${workspace.pathGuard.relative(parent)}' changed while it was being used`,
        parent,
        "symlink-escape",
      );
    return await use(PROC_FD ? `/proc/self/fd/${opened.handle.fd}/${path.basename(entry)}` : entry);
  } finally {
    await opened.handle.close();
  }
}

/**
 * `mkdir -p` of `directory` (a real path the guard resolved) below its deepest existing
 * ancestor as the guard opened and checked it: directories are created inside the workspace
 * even when one on the way was swapped for a link after the check.
 */
export async function makeDirectories(
  workspace: WorkspaceContext,
  directory: string,
): Promise<void> {
  let existing = directory;
  while (!existsSync(existing) && path.dirname(existing) !== existing)
    existing = path.dirname(existing);
  if (existing === directory) return;
  const rest = path.relative(existing, directory);
  const opened = await workspace.pathGuard.open(
    existing,
    constants.O_RDONLY | constants.O_DIRECTORY,
  );
  try {
    if (opened.path !== existing)
      throw new PathOutsideWorkspaceError(
        `'${workspace.pathGuard.relative(existing)}' changed while it was being used`,
        existing,
        "symlink-escape",
      );
    await mkdir(PROC_FD ? `/proc/self/fd/${opened.handle.fd}/${rest}` : directory, {
      recursive: true,
    });
  } finally {
    await opened.handle.close();
  }
}
