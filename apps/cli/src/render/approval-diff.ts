import { createRequire } from "node:module";
import type * as Diff from "diff";
import { toTerminalSafe } from "./terminal-safe.js";

/** What a file change would do, read before it happens: the file's text now and after. */
export interface ProposedChange {
  /** Workspace-relative path, as the tool's summary names it. */
  readonly path: string;
  readonly before: string;
  readonly after: string;
}

/** Options of {@link formatChangeDiff}. */
export interface ChangeDiffOptions {
  readonly color: boolean;
  /** Diff lines shown before the rest is counted. Default 60; `Infinity` shows all. */
  readonly maxLines?: number;
}

/** The diff's lines and how many were left out. */
export interface ChangeDiffView {
  readonly text: string;
  readonly hiddenLines: number;
  /** Lines added and removed, for the heading. */
  readonly added: number;
  readonly removed: number;
}

const DEFAULT_MAX_LINES = 60;
/** Very different large files: the diff gives up rather than hold the question. */
const DIFF_TIMEOUT_MS = 2000;

let diffModule: typeof Diff | undefined;
/** Loaded at the first diff: a chat that changes nothing never needs it. */
function diffLibrary(): typeof Diff {
  return (diffModule ??= createRequire(import.meta.url)("diff") as typeof Diff);
}

/**
 * A change as a coloured unified diff with three lines of context: removed lines red with
 * `-`, added lines green with `+`, hunk headings cyan. Every line of the file is escaped
 * strictly for the terminal, so a file's content cannot move the cursor or restyle the
 * question around it. Long diffs are cut after `maxLines` and the rest counted.
 *
 * @example
 * formatChangeDiff({ path: "a.txt", before: "one\n", after: "two\n" }, { color: false }).text
 * // "  --- a/a.txt\n  +++ b/a.txt\n  @@ -1 +1 @@\n  -one\n  +two\n"
 */
export function formatChangeDiff(
  change: ProposedChange,
  options: ChangeDiffOptions,
): ChangeDiffView {
  const { color } = options;
  const paint = (code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[39m` : text);
  const safe = (text: string) => toTerminalSafe(text, { strict: true, keepTabs: false });
  const patch = diffLibrary().structuredPatch(
    `a/${change.path}`,
    `b/${change.path}`,
    change.before,
    change.after,
    undefined,
    undefined,
    { context: 3, timeout: DIFF_TIMEOUT_MS },
  );
  if (patch === undefined) {
    return {
      text: `  (the old and new text differ too much to diff within ${DIFF_TIMEOUT_MS} ms)\n`,
      hiddenLines: 0,
      added: 0,
      removed: 0,
    };
  }
  const lines: string[] = [
    paint(31, `--- a/${safe(change.path)}`),
    paint(32, `+++ b/${safe(change.path)}`),
  ];
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    const range = (start: number, count: number) =>
      count === 1 ? `${start}` : `${start},${count}`;
    lines.push(
      paint(
        36,
        `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`,
      ),
    );
    for (const line of hunk.lines) {
      const sign = line[0];
      const body = safe(line.slice(1));
      if (sign === "+") {
        added++;
        lines.push(paint(32, `+${body}`));
      } else if (sign === "-") {
        removed++;
        lines.push(paint(31, `-${body}`));
      } else if (sign === "\\") {
        lines.push(color ? `\x1b[2m${line}\x1b[22m` : line);
      } else {
        lines.push(` ${body}`);
      }
    }
  }
  if (patch.hunks.length === 0) lines.push("(no change to the text)");
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const shown = lines.slice(0, maxLines);
  const hiddenLines = lines.length - shown.length;
  return {
    text: shown.map((line) => `  ${line}\n`).join(""),
    hiddenLines,
    added,
    removed,
  };
}
