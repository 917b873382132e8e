import { readdirSync } from "node:fs";
import path from "node:path";

/** Entries git looks for to decide that a directory is a repository (`HEAD`, `objects`, `refs`, `commondir`). */
const GIT_DIRECTORY_ENTRIES = new Set(["head", "objects", "refs", "commondir", "config", "gitdir"]);

function lowerCaseEntries(directory: string, cache?: Map<string, Set<string>>): Set<string> {
  const cached = cache?.get(directory);
  if (cached !== undefined) return new Set(cached);
  let entries: Set<string>;
  try {
    entries = new Set(readdirSync(directory).map((name) => name.toLowerCase()));
  } catch {
    entries = new Set();
  }
  cache?.set(directory, entries);
  return new Set(entries);
}

function isGitShaped(entries: ReadonlySet<string>): boolean {
  const shared = entries.has("commondir");
  return (
    entries.has("head") && (entries.has("objects") || shared) && (entries.has("refs") || shared)
  );
}

/**
 * Whether writing `absolute` makes or touches a directory that git treats as a repository
 * on its own: git opens any directory holding `HEAD`, `objects/` and `refs/` (or a
 * `commondir`) as a bare repository and obeys its `config` (`core.fsmonitor` runs a
 * command on the next `git status`). Checks every directory from `root` down to the
 * parent of `absolute`, with each name of the path added to its parent (the directories on
 * the way are made too). Synchronous, so the
 * sandbox can judge each change as it applies it. `cache` keeps directory listings for a
 * batch of paths judged together (a tree copied or deleted in one call).
 */
export function touchesGitDirectory(
  root: string,
  absolute: string,
  cache?: Map<string, Set<string>>,
): boolean {
  const relative = path.relative(root, absolute);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return false;
  const parts = relative.split(path.sep);
  let directory = root;
  for (let index = 0; index < parts.length; index++) {
    const entries = lowerCaseEntries(directory, cache);
    const name = (parts[index] as string).toLowerCase();
    // Every name on the way is written too (`mkdir -p`): `stage/refs/heads` makes `refs`.
    if (GIT_DIRECTORY_ENTRIES.has(name)) entries.add(name);
    if (isGitShaped(entries)) return true;
    directory = path.join(directory, parts[index] as string);
  }
  return false;
}
