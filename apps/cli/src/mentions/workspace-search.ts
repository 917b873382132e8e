import { isSecretPath } from "@xzatoma/safety";
import { constants } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { PathGuard } from "@xzatoma/safety";

/** One search of the workspace. */
export interface SearchRequest {
  /** `literal`: case-insensitive text (`@search`). `regex`: a JavaScript regular expression (`@grep`). */
  readonly mode: "literal" | "regex";
  readonly pattern: string;
  /** Stop after this many matching lines. */
  readonly maxResults: number;
}

/** One matching line. */
export interface SearchMatch {
  /** Relative to the workspace root, `/`-separated. */
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  /** The line, trimmed and cut to a readable length. */
  readonly text: string;
}

/** What a search found. */
export interface SearchResult {
  readonly matches: readonly SearchMatch[];
  /** More lines matched than `maxResults`, or not every file was searched. */
  readonly truncated: boolean;
}

/**
 * Searches the workspace. Throws a `SyntaxError` for an invalid regular expression.
 * The default is {@link createWorkspaceSearch}; the integrator may pass one backed by
 * ripgrep or the `grep` tool instead.
 */
export type MentionSearch = (request: SearchRequest) => Promise<SearchResult>;

/** Options of {@link createWorkspaceSearch} and {@link listWorkspaceFiles}. */
export interface WorkspaceSearchOptions {
  /** Files are opened through it, so nothing outside the workspace is read. */
  readonly pathGuard: PathGuard;
  /** Stop walking after this many files. Default 5000. */
  readonly maxFiles?: number;
  /** Skip files larger than this. Default 1 MiB. */
  readonly maxFileBytes?: number;
  /** Directory names never entered. Default: `.git`, `node_modules`, build output and caches. */
  readonly skipDirectories?: readonly string[];
}

/** Directories a search does not enter by default. */
export const DEFAULT_SKIPPED_DIRECTORIES: readonly string[] = [
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  ".nx",
  ".cache",
  ".venv",
  "dist",
  "build",
  "target",
  "coverage",
];

const MAX_LINE_CHARS = 300;
const BINARY_SNIFF_BYTES = 8192;

/**
 * The workspace's regular files, relative and sorted, walked breadth-first without
 * following symlinks; `truncated` when `maxFiles` stopped the walk.
 */
export async function listWorkspaceFiles(
  options: WorkspaceSearchOptions,
): Promise<{ files: string[]; truncated: boolean }> {
  const maxFiles = options.maxFiles ?? 5000;
  const skip = new Set(options.skipDirectories ?? DEFAULT_SKIPPED_DIRECTORIES);
  const root = options.pathGuard.root;
  const files: string[] = [];
  const queue: string[] = [root];
  while (queue.length > 0) {
    const directory = queue.shift() ?? root;
    let entries;
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const absolute = path.join(directory, entry.name);
      if (entry.isDirectory() && !skip.has(entry.name)) queue.push(absolute);
      else if (entry.isFile()) {
        if (files.length >= maxFiles) return { files, truncated: true };
        const relative = options.pathGuard.relative(absolute);
        // Searches never open secret-looking files; a mention of the file itself can.
        if (!isSecretPath(relative)) files.push(relative);
      }
    }
  }
  return { files, truncated: false };
}

function matcher(request: SearchRequest): (line: string) => boolean {
  if (request.mode === "regex") {
    const expression = new RegExp(request.pattern);
    return (line) => expression.test(line);
  }
  const wanted = request.pattern.toLowerCase();
  return (line) => line.toLowerCase().includes(wanted);
}

async function readText(
  guard: PathGuard,
  relative: string,
  maxBytes: number,
): Promise<string | undefined> {
  let opened;
  try {
    opened = await guard.open(relative, constants.O_RDONLY);
  } catch {
    return undefined;
  }
  try {
    const stats = await opened.handle.stat();
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    const buffer = await opened.handle.readFile();
    if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
    return buffer.toString("utf8");
  } finally {
    await opened.handle.close();
  }
}

/**
 * A simple in-process search over the workspace's text files, opened through the path
 * guard: literal text case-insensitively, or a regular expression line by line. Binary
 * and large files are skipped; results and the number of files are capped.
 *
 * @example
 * const search = createWorkspaceSearch({ pathGuard: workspace.pathGuard });
 * await search({ mode: "literal", pattern: "todo", maxResults: 50 });
 */
export function createWorkspaceSearch(options: WorkspaceSearchOptions): MentionSearch {
  const maxFileBytes = options.maxFileBytes ?? 1024 * 1024;
  return async (request) => {
    const matches = matcher(request);
    const listing = await listWorkspaceFiles(options);
    const found: SearchMatch[] = [];
    for (const file of listing.files) {
      const text = await readText(options.pathGuard, file, maxFileBytes);
      if (text === undefined) continue;
      const lines = text.split(/\r?\n/);
      for (const [index, line] of lines.entries()) {
        if (!matches(line)) continue;
        if (found.length >= request.maxResults) return { matches: found, truncated: true };
        const trimmed = line.trim();
        found.push({
          path: file,
          line: index + 1,
          text:
            trimmed.length > MAX_LINE_CHARS ? `${trimmed.slice(0, MAX_LINE_CHARS)}...` : trimmed,
        });
      }
    }
    return { matches: found, truncated: listing.truncated };
  };
}
