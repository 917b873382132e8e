import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import type { FileChangeKind, PathConcern } from "@xzatoma/safety";
import type { WorkspaceContext } from "./workspace-context.js";

/** One entry of a tree, symlinks not followed. */
export interface TreeEntry {
  /** Relative to the top of the tree, `/`-separated; "" is the top itself. */
  readonly relative: string;
  readonly kind: "file" | "directory" | "symlink" | "special";
  /** `st_mode` of a file (execute bits included); absent for other kinds. */
  readonly mode?: number;
}

/** Everything under a path, or a note that there is too much. */
export interface TreeListing {
  readonly entries: readonly TreeEntry[];
  /** True when the tree has more than `maxItems` entries; `entries` is then partial. */
  readonly tooLarge: boolean;
}

/** Trees larger than this are not copied, moved or deleted in one call. */
export const DEFAULT_MAX_TREE_ITEMS = 100_000;

/** Lists a file or directory and everything below it without following symlinks. */
export async function listTree(top: string, maxItems: number): Promise<TreeListing> {
  const topStats = await lstat(top);
  const kindOf = (stats: {
    isFile(): boolean;
    isDirectory(): boolean;
    isSymbolicLink(): boolean;
  }): TreeEntry["kind"] =>
    stats.isDirectory()
      ? "directory"
      : stats.isSymbolicLink()
        ? "symlink"
        : stats.isFile()
          ? "file"
          : "special";
  const entries: TreeEntry[] = [
    { relative: "", kind: kindOf(topStats), ...(topStats.isFile() ? { mode: topStats.mode } : {}) },
  ];
  const pending = topStats.isDirectory() ? [""] : [];
  while (pending.length > 0) {
    const relative = pending.pop() as string;
    const children = await readdir(path.join(top, relative), { withFileTypes: true });
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      if (entries.length >= maxItems) return { entries, tooLarge: true };
      const childRelative = relative === "" ? child.name : `${relative}/${child.name}`;
      const kind = kindOf(child);
      // A file's mode tells whether it is executable, which the judgement of a change needs.
      const mode = kind === "file" ? (await lstat(path.join(top, childRelative))).mode : undefined;
      entries.push({ relative: childRelative, kind, ...(mode === undefined ? {} : { mode }) });
      if (kind === "directory") pending.push(childRelative);
    }
  }
  return { entries, tooLarge: false };
}

/** A protected path found in a tree, workspace-relative, and why. */
export interface ProtectedEntry {
  readonly path: string;
  readonly concern: PathConcern;
}

/** How the entries of a tree change: `kind`, and for a write whether files keep their execute bits. */
export interface TreeChange {
  readonly kind: FileChangeKind;
  /** Files land without execute bits (a copy): their mode is not judged. */
  readonly dropsExecute?: boolean;
}

/**
 * The most strongly protected entry once the tree sits at `top` (its real path), judged
 * through the one judgement of file changes (`judgeFileChange`, via the guard) as `change`
 * says: the first that no tool may write, else the first that needs a person's yes;
 * undefined when there is none. An executable file counts when the change keeps or removes
 * it (a move, a deletion), not when a copy drops its execute bits.
 */
export async function firstProtected(
  workspace: WorkspaceContext,
  top: string,
  entries: readonly TreeEntry[],
  change: TreeChange = { kind: "write" },
): Promise<ProtectedEntry | undefined> {
  let found: ProtectedEntry | undefined;
  const listings = new Map<string, Set<string>>();
  for (const entry of entries) {
    const absolute = entry.relative === "" ? top : path.join(top, entry.relative);
    const kind = entry.kind === "directory" && change.kind === "write" ? "mkdir" : change.kind;
    const mode = change.dropsExecute === true ? undefined : entry.mode;
    const concern = await workspace.pathGuard.writeConcern(absolute, {
      kind: entry.kind === "symlink" && change.kind === "write" ? "symlink" : kind,
      ...(mode === undefined ? {} : { existingMode: mode }),
      listings,
    });
    if (concern === undefined) continue;
    const candidate = { path: workspace.pathGuard.relative(absolute), concern };
    if (concern.protection === "never") return candidate;
    found ??= candidate;
  }
  return found;
}
