import { createRequire } from "node:module";
import type * as Diff from "diff";

let diffModule: typeof Diff | undefined;
/**
 * The diff package (19 files), loaded on the first diff rather than when the tools are
 * created: a run that edits nothing never needs it (docs/explanation/start-up-and-memory.md).
 */
function diff(): typeof Diff {
  return (diffModule ??= createRequire(import.meta.url)("diff") as typeof Diff);
}

/** Diffs longer than this many lines are cut. */
export const MAX_DIFF_LINES = 400;
/** Diffing gives up after this long (very different large files). */
const DIFF_TIMEOUT_MS = 2000;

/**
 * A unified diff of two texts with `--- a/<old>` and `+++ b/<new>` headers and three lines
 * of context, or "" when they are equal. Cut after {@link MAX_DIFF_LINES} lines with a note.
 */
export function unifiedDiff(
  oldName: string,
  newName: string,
  oldText: string,
  newText: string,
  maxLines = MAX_DIFF_LINES,
): string {
  if (oldText === newText) return "";
  const patch = diff().createTwoFilesPatch(
    `a/${oldName}`,
    `b/${newName}`,
    oldText,
    newText,
    undefined,
    undefined,
    {
      context: 3,
      timeout: DIFF_TIMEOUT_MS,
      headerOptions: { includeIndex: false, includeUnderline: false, includeFileHeaders: true },
    },
  );
  if (patch === undefined) {
    return `(the files differ too much to diff within ${DIFF_TIMEOUT_MS} ms)\n`;
  }
  const lines = patch.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length <= maxLines) return `${lines.join("\n")}\n`;
  return `${lines.slice(0, maxLines).join("\n")}\n... (diff cut after ${maxLines} of ${lines.length} lines)\n`;
}
