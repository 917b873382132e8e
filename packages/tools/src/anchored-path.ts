import { constants, existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PathOutsideWorkspaceError } from "@xzatoma/safety";
import type { WorkspaceContext } from "./workspace-context.js";

/** Linux names an open descriptor's directory `/proc/self/fd/N`, which no rename can move. */
const PROC_FD = existsSync("/proc/self/fd");

/** A directory the guard opened and checked, and a path that reaches it through its descriptor. */
export interface CheckedDirectory {
  /** `/proc/self/fd/N` on Linux, else the directory's path. */
  readonly anchor: string;
  close(): Promise<void>;
}

/**
 * Opens `directory` (a real path the guard resolved) through the guard, which checks the
 * descriptor it got; rejects with a `PathOutsideWorkspaceError` when the directory is not
 * where it was resolved to be (a directory on the way swapped for a link since).
 */
export async function openCheckedDirectory(
  workspace: WorkspaceContext,
  directory: string,
): Promise<CheckedDirectory> {
  const opened = await workspace.pathGuard.open(
    directory,
    constants.O_RDONLY | constants.O_DIRECTORY,
  );
  if (opened.path !== directory) {
    await opened.handle.close();
    throw new PathOutsideWorkspaceError(
      `'${workspace.pathGuard.relative(directory)}' changed while it was being used`,
      directory,
      "symlink-escape",
    );
  }
  return {
    anchor: PROC_FD ? `/proc/self/fd/${opened.handle.fd}` : directory,
    close: () => opened.handle.close(),
  };
}

/** `error` with the descriptor path in its message put back as the directory's own path. */
function named(error: unknown, anchor: string, directory: string): unknown {
  if (error instanceof Error && anchor !== directory && error.message.includes(anchor))
    error.message = error.message.split(anchor).join(directory);
  return error;
}

/**
 * Runs `use` with a path to `entry` (a path the guard resolved: a real parent directory and
 * a last name) anchored to its parent directory as the guard opened and checked it: on Linux
 * `/proc/self/fd/N/name`, so a directory on the way swapped for a link after the check
 * cannot redirect the operation outside the workspace. Elsewhere `use` gets `entry` itself.
 */
export async function withCheckedParent<T>(
  workspace: WorkspaceContext,
  entry: string,
  use: (anchored: string) => Promise<T>,
): Promise<T> {
  const parent = path.dirname(entry);
  const checked = await openCheckedDirectory(workspace, parent);
  try {
    return await use(path.join(checked.anchor, path.basename(entry)));
  } catch (error) {
    throw named(error, checked.anchor, parent);
  } finally {
    await checked.close();
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
  const checked = await openCheckedDirectory(workspace, existing);
  try {
    await mkdir(path.join(checked.anchor, path.relative(existing, directory)), {
      recursive: true,
    });
  } catch (error) {
    throw named(error, checked.anchor, existing);
  } finally {
    await checked.close();
  }
}
