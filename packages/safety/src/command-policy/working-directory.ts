import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { PathGuard } from "../path-guard.js";
import { MOVED } from "./context.js";

/** The directory a command starts in, and why it escalates, if so. */
export interface StartDirectory {
  /** The real absolute path ({@link MOVED} when it cannot be resolved). */
  readonly path: string;
  /** Why the directory escalates the command (outside the workspace); null when it is fine. */
  readonly problem: string | null;
}

function within(parent: string, candidate: string): boolean {
  const relative = path.relative(parent, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Resolves the `cwd` option of a check the way `chdir(2)` would: relative to the
 * workspace root (or absolute), symlinks and `..` physically. It must be an existing
 * directory inside the workspace; otherwise `problem` says why.
 */
export async function resolveStartDirectory(
  cwd: string | undefined,
  guard: PathGuard,
): Promise<StartDirectory> {
  const root = guard.root;
  if (cwd === undefined) return { path: root, problem: null };
  const given = String(cwd);
  const problem = (why: string) =>
    `The working directory \`${given}\` ${why}, so a person decides.`;
  if (given.includes("\0") || given.trim() === "")
    return { path: MOVED, problem: problem("is not a valid path") };
  const candidate = given.startsWith("/") ? given : `${root}/${given}`;
  let real: string;
  try {
    // realpath(3) resolves `link/..` physically, as chdir does.
    real = await realpath(candidate);
  } catch {
    return { path: MOVED, problem: problem("cannot be resolved to a directory") };
  }
  const isDirectory = await stat(real).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (!isDirectory) return { path: real, problem: problem("is not a directory") };
  if (!within(root, real))
    return { path: real, problem: problem(`is outside the workspace (it is \`${real}\`)`) };
  return { path: real, problem: null };
}
