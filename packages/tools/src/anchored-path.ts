import { constants, existsSync } from "node:fs";
import { lstat, mkdir, open, readlink, type FileHandle } from "node:fs/promises";
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
 * Opens `path` (a real path the guard already resolved and judged) with `flags` and
 * `O_NOFOLLOW`, and checks that the descriptor is that very path: on Linux its
 * `/proc/self/fd/N` must name `path`, so a directory on the way swapped for a link since the
 * check is refused with a `PathOutsideWorkspaceError` (without resolving the path again).
 * Elsewhere the guard's own open checks it.
 */
export async function openResolved(
  workspace: WorkspaceContext,
  resolved: string,
  flags: number,
): Promise<FileHandle> {
  if (!PROC_FD) {
    const opened = await workspace.pathGuard.open(resolved, flags);
    if (opened.path === resolved) return opened.handle;
    await opened.handle.close();
  } else {
    let handle: FileHandle;
    try {
      handle = await open(resolved, flags | constants.O_NOFOLLOW);
    } catch (error) {
      // O_NOFOLLOW met a link where the guard saw none (ELOOP, or ENOTDIR with O_DIRECTORY).
      const code = (error as { code?: unknown }).code;
      const link = await lstat(resolved).then(
        (stats) => stats.isSymbolicLink(),
        () => false,
      );
      if (!((code === "ELOOP" || code === "ENOTDIR") && link)) throw error;
      throw changed(workspace, resolved);
    }
    const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (opened === resolved) return handle;
    await handle.close();
  }
  throw changed(workspace, resolved);
}

function changed(workspace: WorkspaceContext, resolved: string): PathOutsideWorkspaceError {
  return new PathOutsideWorkspaceError(
    `'${workspace.pathGuard.relative(resolved)}' changed while it was being used`,
    resolved,
    "symlink-escape",
  );
}

/**
 * Opens `directory` (a real path the guard resolved) as {@link openResolved} does and gives
 * a path that reaches it through the descriptor.
 */
export async function openCheckedDirectory(
  workspace: WorkspaceContext,
  directory: string,
): Promise<CheckedDirectory> {
  const handle = await openResolved(
    workspace,
    directory,
    constants.O_RDONLY | constants.O_DIRECTORY,
  );
  return {
    anchor: PROC_FD ? `/proc/self/fd/${handle.fd}` : directory,
    close: () => handle.close(),
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
