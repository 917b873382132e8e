import path from "node:path";
import { writeConcern, type PathConcern } from "./path-rules/path-rules.js";
import { isSecretPath } from "./path-rules/secret-paths.js";

function within(parent: string, candidate: string): boolean {
  const relative = path.relative(parent, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Why writing `absolute` (a real path) is protected for a workspace at `root`, or
 * undefined. `extra` paths (XZatoma's own config, audit log and history database, with
 * everything below them) are never written. Outside the root only the names count, so a
 * shell startup file is protected wherever it is.
 */
export function protectionOf(
  root: string,
  absolute: string,
  extra: readonly string[] = [],
): PathConcern | undefined {
  if (extra.some((protectedPath) => within(protectedPath, absolute))) {
    return { protection: "never", reason: "it belongs to XZatoma itself" };
  }
  const relative = within(root, absolute) ? path.relative(root, absolute) : absolute;
  return writeConcern(relative);
}

/** Whether writing `absolute` (a real path) is protected at any level. */
export function isProtectedPath(
  root: string,
  absolute: string,
  extra: readonly string[] = [],
): boolean {
  return protectionOf(root, absolute, extra) !== undefined;
}

/** Whether a file name or path looks like it holds secrets: the same as {@link isSecretPath}. */
export function isSecretFileName(name: string): boolean {
  return isSecretPath(name);
}
