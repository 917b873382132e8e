import type { ApprovalRequest } from "@xzatoma/core";
import { formatChangeDiff, type ProposedChange } from "./approval-diff.js";
import { toTerminalSafe, toTerminalSafeLine } from "./terminal-safe.js";

/** Options of {@link formatApprovalRequest}. */
export interface ApprovalViewOptions {
  readonly color: boolean;
  /**
   * Lines shown of an input value that the tool's summary does not already show (a file's
   * new content); the rest is counted and can be viewed with `v`. Default 20; `Infinity`
   * shows everything. The summary itself is always shown whole.
   */
  readonly previewLines?: number;
  /** Characters shown of such a value, likewise. Default 2000. */
  readonly previewCharacters?: number;
}

/** The approval question's text, before the `[a]pprove ...` line. */
export interface ApprovalView {
  readonly text: string;
  /** Part of an input value was left out of its preview; `v` should show it all. */
  readonly shortened: boolean;
}

const DEFAULT_PREVIEW_LINES = 20;
const DEFAULT_PREVIEW_CHARACTERS = 2000;
/** Characters around a value inside the summary that make it a whole word of it. */
const WORD_EDGE = /[\s()'"`,:]/;

const length = (text: string) => Array.from(text).length;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** The summary states `value` as a whole word, so repeating it as a field would add nothing. */
function summaryShows(summary: string, value: string): boolean {
  if (value === "") return false;
  for (let at = summary.indexOf(value); at !== -1; at = summary.indexOf(value, at + 1)) {
    const before = at === 0 ? " " : (summary[at - 1] ?? " ");
    const after = summary[at + value.length] ?? " ";
    if (WORD_EDGE.test(before) && WORD_EDGE.test(after)) return true;
  }
  return false;
}

/**
 * The approval question for a tool call, built so that the model that wrote the call
 * cannot make it read as something else. Every character the model chose is escaped
 * strictly (controls, bidirectional and invisible characters, tabs, unusual spaces), so
 * nothing can move the cursor, overwrite, reorder or hide text. A summary or value of
 * several lines is shown as numbered lines, every one of them, with its size. The
 * tool's summary (the exact command, the file and what happens to it, the URL) is never
 * shortened; only an input value it does not show, such as a file's new content, is
 * previewed, and then the question says how much is left and offers to show it.
 *
 * @example
 * formatApprovalRequest({ toolName: "terminal", summary: "ls  (in .)", ... }, { color: false })
 * // { text: "? terminal wants to: ls  (in .)\n  <reason>\n", shortened: false }
 */
export function formatApprovalRequest(
  request: ApprovalRequest & { readonly change?: ProposedChange },
  options: ApprovalViewOptions,
): ApprovalView {
  const { color } = options;
  const dim = (text: string) => (color ? `\x1b[2m${text}\x1b[22m` : text);
  const mark = color ? (escape: string) => `\x1b[7m${escape}\x1b[27m` : undefined;
  const safe = (text: string) =>
    toTerminalSafe(text, { strict: true, keepTabs: false, ...(mark ? { mark } : {}) });
  const numbered = (lines: readonly string[], total = lines.length) => {
    const width = String(total).length;
    return lines.map((line, index) => `  ${dim(`${String(index + 1).padStart(width)} │`)} ${line}`);
  };
  const maxLines = options.previewLines ?? DEFAULT_PREVIEW_LINES;
  const maxCharacters = options.previewCharacters ?? DEFAULT_PREVIEW_CHARACTERS;

  const tool = toTerminalSafeLine(request.toolName, { strict: true, ...(mark ? { mark } : {}) });
  const out: string[] = [];
  const summary = request.summary;
  if (summary === undefined) {
    out.push(`? ${tool} wants to run with this input:`);
  } else {
    const lines = safe(summary).split("\n");
    if (lines.length === 1) {
      out.push(`? ${tool} wants to: ${lines[0] ?? ""}`);
    } else {
      out.push(
        `? ${tool} wants to (${plural(lines.length, "line")}, ${plural(length(summary), "character")}):`,
      );
      out.push(...numbered(lines));
    }
  }
  out.push(`  ${dim(toTerminalSafeLine(request.reason, { strict: true }))}`);

  let shortened = false;
  const change = request.change;
  if (change !== undefined) {
    // What the file holds now against what it would hold: the diff, not the new content.
    const diff = formatChangeDiff(change, {
      color,
      ...(Number.isFinite(maxLines) ? {} : { maxLines: Infinity }),
    });
    out.push(
      `  ${plural(diff.removed, "line")} removed, ${plural(diff.added, "line")} added in ${safe(change.path)}:`,
    );
    out.push(diff.text.replace(/\n$/, ""));
    if (diff.hiddenLines > 0) {
      shortened = true;
      out.push(
        `  ${dim(`… ${plural(diff.hiddenLines, "more diff line")} not shown; answer v to view them all`)}`,
      );
    }
  }
  const input = request.input;
  const fields: [string, unknown][] =
    input !== null && typeof input === "object" && !Array.isArray(input)
      ? Object.entries(input as Record<string, unknown>)
      : [["input", input]];
  for (const [key, value] of fields) {
    if (value === undefined) continue;
    // The diff above says what these do to the file.
    if (change !== undefined && (key === "content" || key === "old_text")) continue;
    if (typeof value === "string" && summary !== undefined && summaryShows(summary, value))
      continue;
    const raw = typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? "");
    const name = toTerminalSafeLine(key, { strict: true, ...(mark ? { mark } : {}) });
    const characters = Array.from(raw);
    const lineCount = raw.split("\n").length;
    const shown = characters.slice(0, maxCharacters).join("").split("\n").slice(0, maxLines);
    const shownText = shown.join("\n");
    const hidden = characters.length - length(shownText);
    if (lineCount === 1 && hidden === 0) {
      out.push(`  ${name}: ${raw === "" ? dim("(empty)") : safe(raw)}`);
      continue;
    }
    out.push(
      `  ${name} (${plural(lineCount, "line")}, ${plural(characters.length, "character")}):`,
    );
    const lines = numbered(safe(shownText).split("\n"), lineCount);
    if (hidden > 0) {
      shortened = true;
      // A line cut in the middle says so; the rest starts there, else on the next line.
      const cutMidLine = characters[length(shownText)] !== "\n";
      if (cutMidLine) lines[lines.length - 1] += dim("…");
      const from = cutMidLine ? shown.length : shown.length + 1;
      lines.push(
        `  ${dim(`… ${plural(hidden, "more character")} from line ${from} not shown; answer v to view them all`)}`,
      );
    }
    out.push(...lines);
  }
  return { text: `${out.join("\n")}\n`, shortened };
}
