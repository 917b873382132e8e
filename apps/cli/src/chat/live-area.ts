import { displayWidth } from "../render/display-width.js";

const ESC = "\x1b[";

/** What the live area shows: its lines, and where the cursor goes (line index, column). */
export interface LiveFrame {
  readonly lines: readonly string[];
  readonly cursorLine: number;
  readonly cursorColumn: number;
}

/**
 * The bottom of the terminal that is drawn again as it changes (the prompt, the slash menu,
 * the status line), below output that scrolls up as usual.
 */
export interface LiveArea {
  /** Writes output above the live area. What arrives in one tick is written at once. */
  print(text: string): void;
  /** Like `print`, starting on a line of its own when the output's last line is unfinished. */
  printLine(text: string): void;
  /** Draws the frame the render function returns now, in place of the last. */
  show(): void;
  /** Clears the screen (Ctrl-L); the next `show` draws at its top. */
  clearScreen(): void;
  /** Writes what is pending, erases the live area; later output is written as it comes. */
  close(): void;
  /** The terminal's columns and rows, and the rows a line takes (a cell more for a cursor). */
  columns(): number;
  rows(): number;
  rowsOf(line: string): number;
}

/**
 * A live area on `output`. To print, it erases itself (up over its rows, clear to the end
 * of the screen), writes the output and draws itself below it, in one write, so nothing
 * flickers and output never lands inside it. The output's unfinished last line is
 * remembered by its width, so the next output continues it.
 */
export function createLiveArea(output: NodeJS.WriteStream, render: () => LiveFrame): LiveArea {
  let closed = false;
  // What is on the screen: whether the area is drawn, and the cursor's row in it.
  let drawn = false;
  let cursorRow = 0;
  /** Columns of the output's last, unfinished line (0 at a line start). */
  let outputColumn = 0;
  let afterPartialLine = false;
  let pending = "";
  let scheduled = false;

  const columns = () => Math.max(20, output.columns || 80);
  const rows = () => Math.max(10, output.rows || 24);
  const rowsOf = (line: string) => Math.max(1, Math.ceil((displayWidth(line) + 1) / columns()));

  /** The bytes that erase the area, leaving the cursor where output continues. */
  const erase = (): string => {
    if (!drawn) return "";
    drawn = false;
    const up = cursorRow + (afterPartialLine ? 1 : 0);
    const move = up > 0 ? `${ESC}${up}A` : "";
    return `${move}${afterPartialLine ? `${ESC}${outputColumn + 1}G` : "\r"}${ESC}J`;
  };

  /** The bytes that draw the area and put the cursor in it. */
  const draw = (): string => {
    if (closed) return "";
    const { lines, cursorLine, cursorColumn } = render();
    afterPartialLine = outputColumn > 0;
    let text = afterPartialLine ? "\n" : "";
    // Each line ends with a space, so a line as wide as the screen wraps as counted.
    text += lines.map((line) => `${line} `).join("\r\n");
    let row = 0;
    let cursorAt = 0;
    lines.forEach((line, index) => {
      if (index === cursorLine) cursorAt = row + Math.floor(cursorColumn / columns());
      row += rowsOf(line);
    });
    const up = row - 1 - cursorAt;
    if (up > 0) text += `${ESC}${up}A`;
    text += `${ESC}${(cursorColumn % columns()) + 1}G`;
    cursorRow = cursorAt;
    drawn = true;
    return text;
  };

  const track = (text: string) => {
    const cut = Math.max(text.lastIndexOf("\n"), text.lastIndexOf("\r"));
    const width = displayWidth(cut === -1 ? text : text.slice(cut + 1));
    outputColumn = cut === -1 ? outputColumn + width : width;
    if (outputColumn >= columns()) outputColumn %= columns();
  };

  const flush = () => {
    scheduled = false;
    if (pending === "") return;
    const text = pending;
    pending = "";
    if (closed) {
      output.write(text);
      return;
    }
    const cleared = erase();
    track(text);
    output.write(cleared + text + draw());
  };

  const print = (text: string) => {
    if (text === "") return;
    if (closed) {
      output.write(text);
      return;
    }
    pending += text;
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };

  return {
    print,
    printLine(text) {
      const atLineStart = pending === "" ? outputColumn === 0 : pending.endsWith("\n");
      print(atLineStart ? text : `\n${text}`);
    },
    show() {
      if (closed) return;
      if (pending !== "") flush();
      else output.write(erase() + draw());
    },
    clearScreen() {
      output.write(`${ESC}H${ESC}2J`);
      drawn = false;
      outputColumn = 0;
    },
    close() {
      if (closed) return;
      flush();
      output.write(erase() + (outputColumn > 0 ? "\n" : ""));
      closed = true;
    },
    columns,
    rows,
    rowsOf,
  };
}
