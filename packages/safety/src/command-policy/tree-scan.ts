import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { isSecretFileName } from "../protected-paths.js";

/** At most this many entries are looked at below one directory a recursive read covers. */
const TREE_BUDGET = 2_000;

/** What a recursive read would reach that a plain read of one file would not be allowed. */
export type TreeProblem =
  { readonly kind: "secret" | "hard-link"; readonly path: string } | { readonly kind: "too-large" };

/**
 * Looks below `directory` (a real path) the way `grep -r` walks it, without following
 * symlinks, for a secret file or a hard-linked regular file; stops at the first, or
 * after {@link TREE_BUDGET} entries. Null when the tree is clean, or not a directory.
 */
export async function scanTree(directory: string): Promise<TreeProblem | null> {
  const pending = [directory];
  let seen = 0;
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++seen > TREE_BUDGET) return { kind: "too-large" };
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      if (!entry.isFile()) continue;
      // The whole path, as a direct read is judged: a file in `.ssh/` or `.aws/` is secret
      // whatever its name.
      if (isSecretFileName(full)) return { kind: "secret", path: full };
      const stats = await lstat(full).catch(() => null);
      if (stats !== null && stats.nlink > 1) return { kind: "hard-link", path: full };
    }
  }
  return null;
}
