import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { defineTool, toolFailure, toolSuccess, type Tool } from "@xzatoma/core";
import { PathOutsideWorkspaceError } from "@xzatoma/safety";
import { LIST_DIRECTORY_DESCRIPTION } from "./descriptions/list-directory.js";
import { openCheckedDirectory } from "./anchored-path.js";
import { describeFsError, guardPath } from "./tool-paths.js";
import { wildcardMatcher } from "./wildcard.js";
import type { WorkspaceContext } from "./workspace-context.js";
import { builtinInput } from "./builtin-input.js";

/** Listings stop after this many entries. */
export const DEFAULT_MAX_LIST_ENTRIES = 1000;

/** Options of {@link createListDirectoryTool}. */
export interface ListDirectoryToolOptions {
  /** Entries listed at most. Default 1000. */
  readonly maxEntries?: number;
}

interface Entry {
  readonly relative: string;
  readonly kind: "file" | "dir" | "symlink";
  readonly size: number;
}

/** The `list_directory` tool: lists a directory inside the workspace, optionally recursively. */
export function createListDirectoryTool(
  workspace: WorkspaceContext,
  options: ListDirectoryToolOptions = {},
): Tool {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_LIST_ENTRIES;
  return defineTool({
    name: "list_directory",
    description: LIST_DIRECTORY_DESCRIPTION,
    ...builtinInput("list_directory"),
    access: "read",
    async execute(input, context) {
      const resolved = await guardPath(workspace, input.path);
      if (!resolved.ok) return resolved.failure;
      const matches = input.pattern === undefined ? undefined : wildcardMatcher(input.pattern);
      const entries: Entry[] = [];
      let truncated = false;
      const pending = [resolved.path];
      while (pending.length > 0 && !truncated) {
        if (context.signal.aborted) break;
        const directory = pending.shift() as string;
        let children: ListedChild[];
        try {
          children = await listChecked(workspace, directory);
        } catch (error) {
          const shown = workspace.pathGuard.relative(directory);
          if (error instanceof PathOutsideWorkspaceError)
            return toolFailure(
              `'${shown}' changed while it was being listed and now points outside the workspace; nothing was listed.`,
            );
          if ((error as { code?: unknown }).code === "ENOTDIR" && directory === resolved.path)
            return toolFailure(`'${input.path}' is not a directory. Use read_file to read a file.`);
          return toolFailure(describeFsError(error, shown));
        }
        for (const child of children) {
          const absolute = path.join(directory, child.name);
          if (input.recursive && child.kind === "dir" && child.name !== ".git")
            pending.push(absolute);
          if (matches && !matches(child.name)) continue;
          if (entries.length >= maxEntries) {
            truncated = true;
            break;
          }
          const size =
            child.kind === "file" ? ((await lstat(absolute).catch(() => null))?.size ?? 0) : 0;
          entries.push({
            relative: path.relative(resolved.path, absolute).split(path.sep).join("/"),
            kind: child.kind,
            size,
          });
        }
      }
      entries.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
      const where = workspace.pathGuard.relative(resolved.path);
      if (entries.length === 0) {
        return toolSuccess(
          matches ? `No entries in '${where}' match '${input.pattern}'.` : `'${where}' is empty.`,
          {
            entries: 0,
          },
        );
      }
      const lines = entries.map((entry) => `${entry.relative} ${entry.kind} ${entry.size}`);
      if (truncated)
        lines.push(
          `... listing stopped after ${maxEntries} entries; narrow it with path or pattern.`,
        );
      return toolSuccess(lines.join("\n"), {
        entries: entries.length,
        listingTruncated: truncated,
      });
    },
  });
}

interface ListedChild {
  readonly name: string;
  readonly kind: Entry["kind"];
}

/**
 * The entries of `directory` (a real path the guard resolved), sorted by name, read through
 * a descriptor the guard opened and checked: a directory on the way swapped for a link to
 * somewhere else after it was resolved is refused, not listed.
 */
async function listChecked(workspace: WorkspaceContext, directory: string): Promise<ListedChild[]> {
  const checked = await openCheckedDirectory(workspace, directory);
  try {
    const children = await readdir(checked.anchor, { withFileTypes: true });
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return children.map((child) => ({
      name: child.name,
      kind: child.isSymbolicLink() ? "symlink" : child.isDirectory() ? "dir" : "file",
    }));
  } finally {
    await checked.close();
  }
}
