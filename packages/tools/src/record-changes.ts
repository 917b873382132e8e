import { existsSync, lstatSync, realpathSync } from "node:fs";
import path from "node:path";
import type { WorkspaceContext } from "./workspace-context.js";

/** The path arguments a file tool changes, and whether the whole tree below each changes. */
const CHANGED_ARGUMENTS: Readonly<Record<string, readonly { key: string; tree: boolean }[]>> = {
  write_file: [{ key: "path", tree: false }],
  edit_file: [{ key: "path", tree: false }],
  create_directory: [{ key: "path", tree: false }],
  delete_path: [{ key: "path", tree: true }],
  copy_path: [{ key: "destination", tree: true }],
  move_path: [
    { key: "source", tree: true },
    { key: "destination", tree: true },
  ],
};

/**
 * Records, through the workspace's change recorder, what a file tool's call is about to
 * change: each path argument it writes (through a final link, the file it leads to too), the
 * whole tree for a delete, move or copy, and the directories a write would create above it.
 * Paths outside the workspace are the guard's to refuse and are not recorded.
 */
export function recordToolChanges(
  workspace: WorkspaceContext,
  toolName: string,
  input: unknown,
): void {
  const recorder = workspace.changes;
  const targets = CHANGED_ARGUMENTS[toolName];
  if (recorder === undefined || targets === undefined || typeof input !== "object" || !input)
    return;
  for (const { key, tree } of targets) {
    const value = (input as Record<string, unknown>)[key];
    if (typeof value !== "string" || value === "") continue;
    const lexical = path.resolve(workspace.root, value);
    // The directories a write creates, from the top, so a rewind removes them again.
    const missing: string[] = [];
    for (let parent = path.dirname(lexical); !existsSync(parent); parent = path.dirname(parent)) {
      if (parent === path.dirname(parent)) break;
      missing.unshift(parent);
    }
    for (const directory of missing) recorder.recordBefore(directory);
    recorder.recordBefore(lexical, { tree });
    if (lstatSync(lexical, { throwIfNoEntry: false })?.isSymbolicLink() && !tree) {
      try {
        recorder.recordBefore(realpathSync(lexical));
      } catch {
        // A dangling link: the write creates the file it names, recorded as absent below.
        recorder.recordBefore(path.resolve(path.dirname(lexical), value));
      }
    }
  }
}
