/**
 * The text being typed at the chat prompt: several lines, and a cursor in it. Pure state,
 * no terminal: the line editor (`line-editor.ts`) turns keys into these operations and
 * draws the result. The cursor is an index into `text` that never splits a surrogate pair.
 */
export interface InputBuffer {
  readonly text: string;
  readonly cursor: number;
}

/** An empty buffer. */
export const EMPTY_BUFFER: InputBuffer = { text: "", cursor: 0 };

/** A buffer holding `text` with the cursor at its end. */
export function bufferOf(text: string): InputBuffer {
  return { text, cursor: text.length };
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

function previousIndex(text: string, index: number): number {
  if (index <= 0) return 0;
  return index >= 2 && isLowSurrogate(text.charCodeAt(index - 1)) ? index - 2 : index - 1;
}

function nextIndex(text: string, index: number): number {
  if (index >= text.length) return text.length;
  return isLowSurrogate(text.charCodeAt(index + 1)) ? index + 2 : index + 1;
}

/** Inserts `value` at the cursor. */
export function insert(buffer: InputBuffer, value: string): InputBuffer {
  const { text, cursor } = buffer;
  return {
    text: text.slice(0, cursor) + value + text.slice(cursor),
    cursor: cursor + value.length,
  };
}

/** Deletes the character before the cursor (Backspace). */
export function deleteBackward(buffer: InputBuffer): InputBuffer {
  const start = previousIndex(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

/** Deletes the character under the cursor (Delete, Ctrl-D on a non-empty buffer). */
export function deleteForward(buffer: InputBuffer): InputBuffer {
  const end = nextIndex(buffer.text, buffer.cursor);
  return {
    text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(end),
    cursor: buffer.cursor,
  };
}

/** Deletes the word before the cursor (Ctrl-W, Alt-Backspace). */
export function deleteWordBackward(buffer: InputBuffer): InputBuffer {
  const before = buffer.text.slice(0, buffer.cursor);
  const start = before.replace(/\S+\s*$|\s+$/u, "").length;
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

/** Where the cursor's line starts and ends. */
function lineBounds(buffer: InputBuffer): { start: number; end: number } {
  const start = buffer.text.lastIndexOf("\n", buffer.cursor - 1) + 1;
  const newline = buffer.text.indexOf("\n", buffer.cursor);
  return { start, end: newline === -1 ? buffer.text.length : newline };
}

/** Deletes from the start of the cursor's line to the cursor (Ctrl-U). */
export function deleteToLineStart(buffer: InputBuffer): InputBuffer {
  const { start } = lineBounds(buffer);
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

/** Deletes from the cursor to the end of its line (Ctrl-K). */
export function deleteToLineEnd(buffer: InputBuffer): InputBuffer {
  const { end } = lineBounds(buffer);
  return {
    text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(end),
    cursor: buffer.cursor,
  };
}

/** Moves the cursor one character left or right. */
export function moveHorizontally(buffer: InputBuffer, direction: -1 | 1): InputBuffer {
  const cursor =
    direction < 0
      ? previousIndex(buffer.text, buffer.cursor)
      : nextIndex(buffer.text, buffer.cursor);
  return { text: buffer.text, cursor };
}

/** Moves the cursor to the start or the end of its line (Home/Ctrl-A, End/Ctrl-E). */
export function moveToLineEdge(buffer: InputBuffer, edge: "start" | "end"): InputBuffer {
  const { start, end } = lineBounds(buffer);
  return { text: buffer.text, cursor: edge === "start" ? start : end };
}

/**
 * Moves the cursor to the line above or below, keeping its column where that line is long
 * enough. Undefined when there is no such line: the editor then walks the history instead.
 */
export function moveVertically(buffer: InputBuffer, direction: -1 | 1): InputBuffer | undefined {
  const { start, end } = lineBounds(buffer);
  const column = buffer.cursor - start;
  if (direction < 0) {
    if (start === 0) return undefined;
    const previousStart = buffer.text.lastIndexOf("\n", start - 2) + 1;
    return { text: buffer.text, cursor: Math.min(previousStart + column, start - 1) };
  }
  if (end === buffer.text.length) return undefined;
  const nextStart = end + 1;
  const nextEnd = buffer.text.indexOf("\n", nextStart);
  const limit = nextEnd === -1 ? buffer.text.length : nextEnd;
  return { text: buffer.text, cursor: Math.min(nextStart + column, limit) };
}
