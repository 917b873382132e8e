import {
  chmodSync,
  cpSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import type { BlobStore } from "./blob-store.js";
import type { RewindChange } from "./rewind-plan.js";

/** What applying a rewind did. */
export interface RewindResult {
  /** Paths put back. */
  readonly restored: string[];
  /** Paths that could not be put back, with the reason. */
  readonly failed: { path: string; reason: string }[];
  /** Where copies of overwritten conflicting paths were kept (with `force`). */
  readonly kept: { path: string; copy: string }[];
}

function depth(relative: string): number {
  return relative.split("/").length;
}

function removeEntry(absolute: string): void {
  const stats = lstatSync(absolute, { throwIfNoEntry: false });
  if (stats === undefined) return;
  if (stats.isDirectory()) {
    // Only an empty directory goes: what the person put inside stays, and is reported.
    if (readdirSync(absolute).length > 0) {
      throw new Error("the directory is not empty (it holds entries no turn recorded)");
    }
    rmdirSync(absolute);
  } else unlinkSync(absolute);
}

/**
 * Puts `changes` back in `workspace`: removals deepest first, then directories from the top,
 * then files and links; each file written whole and renamed into place with its mode.
 * `keep` (the paths of conflicts being forced) are copied to `keepDirectory` first.
 */
export function applyRewind(
  workspace: string,
  changes: readonly RewindChange[],
  blobs: BlobStore,
  keep?: { readonly paths: readonly string[]; readonly directory: string },
): RewindResult {
  const restored: string[] = [];
  const failed: { path: string; reason: string }[] = [];
  const kept: { path: string; copy: string }[] = [];
  const absoluteOf = (relative: string) => path.join(workspace, ...relative.split("/"));
  for (const relative of keep?.paths ?? []) {
    const source = absoluteOf(relative);
    const copy = path.join(keep?.directory ?? "", ...relative.split("/"));
    if (lstatSync(source, { throwIfNoEntry: false }) === undefined) continue;
    mkdirSync(path.dirname(copy), { recursive: true, mode: 0o700 });
    cpSync(source, copy, { recursive: true, verbatimSymlinks: true });
    kept.push({ path: relative, copy });
  }
  const attempt = (relative: string, action: () => void) => {
    try {
      action();
      if (!restored.includes(relative)) restored.push(relative);
    } catch (error) {
      failed.push({
        path: relative,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  };
  // Whatever stands where something else belongs goes first, deepest first.
  const removals = changes
    .filter(
      (change) => change.current.kind !== "absent" && change.current.kind !== change.target.kind,
    )
    .sort((left, right) => depth(right.path) - depth(left.path));
  for (const change of removals) attempt(change.path, () => removeEntry(absoluteOf(change.path)));
  const directories = changes
    .filter((change) => change.target.kind === "directory")
    .sort((left, right) => depth(left.path) - depth(right.path));
  for (const change of directories) {
    if (change.target.kind !== "directory") continue;
    const mode = change.target.mode;
    attempt(change.path, () => {
      mkdirSync(absoluteOf(change.path), { recursive: true });
      chmodSync(absoluteOf(change.path), mode);
    });
  }
  for (const change of changes) {
    const target = change.target;
    const absolute = absoluteOf(change.path);
    if (target.kind === "file") {
      attempt(change.path, () => {
        const bytes = blobs.get(target.hash);
        if (bytes === undefined)
          throw new Error("its recorded content is missing from the checkpoints");
        mkdirSync(path.dirname(absolute), { recursive: true });
        const temporary = path.join(
          path.dirname(absolute),
          `.${path.basename(absolute)}.xzatoma-rewind`,
        );
        writeFileSync(temporary, bytes, { mode: 0o600 });
        chmodSync(temporary, target.mode);
        renameSync(temporary, absolute);
      });
    } else if (target.kind === "symlink") {
      attempt(change.path, () => {
        removeEntry(absolute);
        mkdirSync(path.dirname(absolute), { recursive: true });
        symlinkSync(target.target, absolute);
      });
    }
  }
  // Nothing stood there before the turn: remove what the turns made, deepest first.
  const absent = changes
    .filter((change) => change.target.kind === "absent" && change.current.kind !== "absent")
    .sort((left, right) => depth(right.path) - depth(left.path));
  for (const change of absent) attempt(change.path, () => removeEntry(absoluteOf(change.path)));
  return { restored, failed, kept };
}
