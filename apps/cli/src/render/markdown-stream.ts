import { createTerminalSafeStream } from "./terminal-safe.js";

/**
 * Renders streamed Markdown for a terminal. Plain paragraph text is written as it arrives,
 * so a long answer appears word by word. Lines that Markdown formats (headings, list
 * items, quotes, code blocks) are held until complete and then printed formatted:
 * headings bold, code indented and dim, inline `code` cyan, **bold** bold, bullets as •.
 * Without colour the Markdown passes through unformatted.
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

const ESC = "\x1b[";
/** Characters needed before a line's kind is known. */
const DECIDE_AFTER = 4;
const FORMATTED_LINE = /^\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s|>|```|\|)/;

/** One complete line, formatted; `line` must already be escaped for the terminal. */
export function renderMarkdownLine(line: string, inCode: boolean, color: boolean): string {
  if (!color) return line;
  if (inCode) return `${ESC}2m    ${line}${ESC}22m`;
  const heading = /^(#{1,6})\s+(.*)$/.exec(line);
  if (heading) return `${ESC}1m${heading[2] ?? ""}${ESC}22m`;
  let text = line.replace(/^(\s*)[-*+]\s+/, "$1• ");
  text = text.replace(/`([^`]+)`/g, `${ESC}36m$1${ESC}39m`);
  text = text.replace(/\*\*([^*]+)\*\*/g, `${ESC}1m$1${ESC}22m`);
  return text;
}

export function createMarkdownStream(
  output: NodeJS.WritableStream,
  options: { color: boolean },
): MarkdownStream {
  let pending = "";
  let inCode = false;
  let mode: "undecided" | "stream" | "hold" = "undecided";

  const finishLine = () => {
    if (mode === "stream") {
      output.write("\n");
    } else if (/^\s*```/.test(pending)) {
      inCode = !inCode;
      if (!options.color) output.write(`${pending}\n`);
    } else {
      output.write(`${renderMarkdownLine(pending, inCode, options.color)}\n`);
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
      mode = "stream";
      output.write(pending);
      pending = "";
    }
  };

  const feed = (text: string) => {
    if (text === "") return;
    if (mode === "stream") {
      output.write(text);
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
      if (pending !== "" || mode === "stream") {
        if (mode === "stream") {
          output.write("\n");
        } else {
          output.write(`${renderMarkdownLine(pending, inCode, options.color)}\n`);
        }
      }
      pending = "";
      inCode = false;
      mode = "undecided";
    },
  };
}
