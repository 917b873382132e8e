import { highlightCode } from "./code-highlight.js";
import { leavesInlineOpen, renderInline } from "./inline-markdown.js";
import { isTableRow, renderTable } from "./markdown-table.js";
import { createTerminalSafeStream } from "./terminal-safe.js";
import { createWordWrapper } from "./word-wrap.js";

/**
 * Renders streamed Markdown for a terminal. Paragraph text is written word by word as it
 * arrives, its inline Markdown styled (`code`, **bold**, *emphasis*, links) once each
 * construct is closed. Lines that Markdown formats as a whole (headings, list items,
 * quotes) are held until complete; table rows until the table ends, then drawn with box
 * characters; code blocks line by line, highlighted by their language (see
 * `code-highlight.ts`). With a `width` (a terminal), lines break between words at that
 * width, list items with a hanging indent. Without colour there is no styling, and without
 * a width nothing is laid out: piped output is the Markdown as written.
 *
 * The model's text is escaped for the terminal before anything else (see
 * `terminal-safe.ts`): its control, bidirectional and invisible characters print as
 * visible escapes, in code blocks too, and the styling added here is the only escape
 * sequence that reaches the terminal.
 */
export interface MarkdownStream {
  /** Feeds a chunk of the model's text. */
  write(delta: string): void;
  /** Prints what is left of the last line. */
  end(): void;
}

/** Options of {@link createMarkdownStream}. */
export interface MarkdownStreamOptions {
  readonly color: boolean;
  /** The terminal's columns, read at each word (so a resize applies); none: no wrapping. */
  readonly width?: () => number | undefined;
}

const ESC = "\x1b[";
/** Characters needed before a line's kind is known. */
const DECIDE_AFTER = 4;
const FORMATTED_LINE = /^\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s|>|```|\|)/;
/** A paragraph's text held for an open inline construct is written anyway past this. */
const MAX_HELD = 400;
/** Code blocks up to this many lines are highlighted as a whole at each line. */
const WHOLE_BLOCK_LINES = 150;

export function createMarkdownStream(
  output: { write(text: string): unknown },
  options: MarkdownStreamOptions,
): MarkdownStream {
  const { color } = options;
  const layout = options.width !== undefined;
  const write = (text: string) => {
    if (text !== "") output.write(text);
  };
  const wrapper = createWordWrapper(write, () => options.width?.());
  let pending = "";
  let segment = "";
  let mode: "undecided" | "stream" | "hold" = "undecided";
  let inCode = false;
  let codeLanguage = "";
  let codeLines: string[] = [];
  let table: string[] = [];

  const flushTable = () => {
    if (table.length === 0) return;
    const width = options.width?.();
    write(renderTable(table, { color, ...(width !== undefined ? { width } : {}) }));
    table = [];
  };

  /** Writes the paragraph's text up to its last space outside an open construct. */
  const emitSegment = (final: boolean) => {
    if (final || segment.length > MAX_HELD) {
      wrapper.words(renderInline(segment, color));
      segment = "";
      return;
    }
    for (let index = segment.length - 1; index >= 0; index -= 1) {
      if (segment[index] !== " ") continue;
      if (leavesInlineOpen(segment.slice(0, index))) continue;
      wrapper.words(renderInline(segment.slice(0, index + 1), color));
      segment = segment.slice(index + 1);
      return;
    }
  };

  const codeLine = (line: string): string => {
    if (!color) return `${line}\n`;
    const highlighted =
      codeLines.length <= WHOLE_BLOCK_LINES
        ? highlightCode(codeLines.join("\n"), codeLanguage)?.split("\n").at(-1)
        : highlightCode(line, codeLanguage);
    return highlighted === undefined ? `${ESC}2m    ${line}${ESC}22m\n` : `    ${highlighted}\n`;
  };

  /** A whole line of a heading, a list item, a quote or a paragraph line held to decide. */
  const heldLine = (line: string) => {
    if (!layout && !color) {
      write(`${line}\n`);
      return;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      wrapper.words(color ? `${ESC}1m${renderInline(heading[2] ?? "", color)}${ESC}22m` : line);
      wrapper.newline();
      return;
    }
    const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    const quote = /^(\s*)>\s?(.*)$/.exec(line);
    if (item || quote) {
      const indent = (item ?? quote)?.[1] ?? "";
      const marker = item
        ? /^[-*+]$/.test(item[2] ?? "") && color
          ? "•"
          : (item[2] ?? "")
        : color
          ? `${ESC}2m│${ESC}22m`
          : ">";
      const rest = item ? (item[3] ?? "") : (quote?.[2] ?? "");
      const markerWidth = item ? (item[2] ?? "").length : 1;
      wrapper.words(`${indent}${marker} `);
      wrapper.setHangingIndent(" ".repeat(indent.length + markerWidth + 1));
      wrapper.words(renderInline(rest, color));
      wrapper.newline();
      return;
    }
    wrapper.words(renderInline(line, color));
    wrapper.newline();
  };

  const finishLine = () => {
    if (mode === "stream") {
      emitSegment(true);
      wrapper.newline();
    } else if (/^\s*```/.test(pending)) {
      flushTable();
      if (!inCode) {
        codeLanguage = pending.trim().slice(3).trim().split(/\s+/)[0]?.toLowerCase() ?? "";
        codeLines = [];
      }
      inCode = !inCode;
      if (!color) write(`${pending}\n`);
    } else if (inCode) {
      codeLines.push(pending);
      write(codeLine(pending));
    } else if (layout && isTableRow(pending)) {
      table.push(pending);
    } else {
      flushTable();
      heldLine(pending);
    }
    pending = "";
    mode = "undecided";
  };

  const decide = () => {
    if (mode !== "undecided") return;
    if (inCode || FORMATTED_LINE.test(pending) || /^\s*`{1,2}$/.test(pending)) {
      if (inCode || pending.trimStart().length >= DECIDE_AFTER || FORMATTED_LINE.test(pending))
        mode = "hold";
      return;
    }
    if (pending.trimStart().length >= DECIDE_AFTER) {
      flushTable();
      mode = "stream";
      segment = pending;
      pending = "";
      emitSegment(false);
    }
  };

  const feed = (text: string) => {
    if (text === "") return;
    if (mode === "stream") {
      segment += text;
      emitSegment(false);
      return;
    }
    pending += text;
    decide();
  };

  const safe = createTerminalSafeStream();
  const feedLines = (text: string) => {
    const parts = text.split("\n");
    parts.forEach((part, index) => {
      feed(part);
      if (index < parts.length - 1) finishLine();
    });
  };

  return {
    write(delta) {
      feedLines(safe.write(delta));
    },
    end() {
      feedLines(safe.end());
      // A fence on the last, unfinished line opens or closes nothing: it is printed.
      if (mode !== "stream" && /^\s*```/.test(pending)) write(`${pending}\n`);
      else if (mode === "stream" || pending !== "") finishLine();
      flushTable();
      pending = "";
      segment = "";
      inCode = false;
      codeLines = [];
      mode = "undecided";
    },
  };
}
