import { toolFailure, toolSuccess, type ToolResult } from "@xzatoma/core";
import { plural } from "./file-targets.js";
import type { SearchResult } from "./grep-search.js";

/** What {@link formatGrepOutput} needs besides the search result. */
export interface GrepOutputInput {
  readonly input: {
    readonly pattern: string;
    /** The searched path, relative to the root. */
    readonly where: string;
    readonly contextLines: number;
    readonly maxResults: number;
  };
  /** Relative paths of the searched files, by index. */
  readonly files: readonly string[];
  readonly result: SearchResult;
  /** False when the file listing stopped early. */
  readonly complete: boolean;
  /** Files not searched because their names look secret. */
  readonly secretFiles?: readonly string[];
  readonly maxFileBytes: number;
  readonly perFileTimeoutMs: number;
}

const matchesText = (count: number) => (count === 1 ? "1 match" : `${count} matches`);

/**
 * Formats grep results: `path:line: text` for matches, `path-line- text` for context,
 * `--` between groups, the first `maxResults` matches in file order, then notes on what
 * was cut or skipped.
 */
export function formatGrepOutput({
  input,
  files,
  result,
  complete,
  maxFileBytes,
  perFileTimeoutMs,
  secretFiles = [],
}: GrepOutputInput): ToolResult {
  const timedOutNames = result.timedOut.map((index) => files[index] ?? "?");
  if (result.abandoned) {
    return toolFailure(
      `The pattern '${input.pattern}' took longer than ${perFileTimeoutMs} ms on ${plural(timedOutNames.length, "file")} (${timedOutNames.join(", ")}), which suggests catastrophic backtracking. Simplify it (avoid nested quantifiers such as (a+)+ or (a|a)*) and search again.`,
    );
  }
  if (result.errors.length > 0) {
    return toolFailure(
      `The search failed: ${result.errors[0] ?? ""}. Try a narrower path or a simpler pattern.`,
    );
  }
  const lines: string[] = [];
  let shown = 0;
  let filesWithMatches = 0;
  let truncated = false;
  for (const file of result.matches) {
    const name = files[file.index] ?? "?";
    const fileLines: string[] = [];
    let lastKept = 0;
    for (const [line, kind, text] of file.records) {
      if (shown >= input.maxResults && (kind !== 0 || line > lastKept + input.contextLines)) {
        truncated = true;
        break;
      }
      if (kind === 1) {
        shown++;
        lastKept = line;
        fileLines.push(`${name}:${line}: ${text}`);
      } else {
        fileLines.push(kind === 0 ? `${name}-${line}- ${text}` : "--");
      }
    }
    if (file.truncated) truncated = true;
    if (lastKept > 0) {
      if (input.contextLines > 0 && lines.length > 0) lines.push("--");
      lines.push(...fileLines);
      filesWithMatches++;
    }
    if (shown >= input.maxResults && truncated) break;
  }
  const notes: string[] = [];
  // Workers stop taking files once enough matches are found: the rest may hold more.
  const more = truncated ? "there are more" : result.searchedAll ? "" : "there may be more";
  if (more !== "") {
    notes.push(
      `[Showing the first ${matchesText(shown)}; ${more}. Narrow the pattern, path or include glob, or raise max_results (at most 1000).]`,
    );
  }
  const skipped = [
    result.binary > 0 ? plural(result.binary, "binary file") : "",
    result.large > 0 ? `${plural(result.large, "file")} over ${maxFileBytes} bytes` : "",
    result.unreadable > 0 ? plural(result.unreadable, "unreadable file") : "",
    result.linked > 0 ? plural(result.linked, "hard-linked file") : "",
  ].filter((part) => part !== "");
  if (skipped.length > 0) notes.push(`[Skipped ${skipped.join(", ")}.]`);
  if (secretFiles.length > 0) {
    notes.push(
      `[Not searched, because they look like they hold secrets: ${secretFiles.slice(0, 10).join(", ")}${secretFiles.length > 10 ? ", …" : ""}. Search one of them by its path to ask the user first.]`,
    );
  }
  if (timedOutNames.length > 0) {
    notes.push(
      `[Gave up on ${plural(timedOutNames.length, "file")} where the pattern took longer than ${perFileTimeoutMs} ms: ${timedOutNames.join(", ")}. Simplify the pattern to search them.]`,
    );
  }
  if (!complete)
    notes.push("[The file listing stopped early; give a narrower path or an include glob.]");
  const searched = `searched ${plural(files.length, "file")}`;
  const metadata = {
    matches: shown,
    files: filesWithMatches,
    searched: files.length,
    truncated: more !== "",
  };
  const tail = notes.length > 0 ? `\n${notes.join("\n")}` : "";
  if (shown === 0) {
    return toolSuccess(
      `No matches for '${input.pattern}' in ${input.where} (${searched}).${tail}`,
      metadata,
    );
  }
  const header = `Found ${matchesText(shown)} in ${plural(filesWithMatches, "file")} (${searched} in ${input.where}):`;
  return toolSuccess(`${header}\n${lines.join("\n")}${tail}`, metadata);
}
