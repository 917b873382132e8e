/**
 * Renders streamed Markdown for a terminal, line by line: a line is printed once it is
 * complete, so formatting never has to be undone. Headings are bold, code blocks are
 * indented and dim, inline `code` is cyan, **bold** is bold, list bullets become •.
 * Without colour the text passes through unchanged.
 */
export interface MarkdownStream {
  /** Feeds a chunk of the model's text. */
  write(delta: string): void;
  /** Prints what is left of the last line. */
  end(): void;
}

const ESC = "\x1b[";

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
  const flushLine = (line: string) => {
    if (/^\s*```/.test(line)) {
      inCode = !inCode;
      if (!options.color) output.write(`${line}\n`);
      return;
    }
    output.write(`${renderMarkdownLine(line, inCode, options.color)}\n`);
  };
  return {
    write(delta) {
      pending += delta;
      let newline = pending.indexOf("\n");
      while (newline !== -1) {
        flushLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
      }
    },
    end() {
      if (pending !== "") flushLine(pending);
      pending = "";
      inCode = false;
    },
  };
}
