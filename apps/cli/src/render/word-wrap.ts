import { displayWidth } from "./display-width.js";

/** Writes words and breaks lines between them at the terminal's width. */
export interface WordWrapper {
  /**
   * Writes `text` (it may hold styling) as words separated by its spaces; a word that
   * does not fit on the line starts the next one, after the hanging indent.
   */
  words(text: string): void;
  /** Ends the line. */
  newline(): void;
  /** The indent of the lines a long line wraps onto (a list item's text), until `newline`. */
  setHangingIndent(indent: string): void;
  /** The column the next character goes to. */
  readonly column: number;
}

/**
 * A word wrapper over `write`. `width` is read at each word, so a resized terminal wraps at
 * its new width; undefined (not a terminal) never breaks a line. A word wider than the
 * whole line is written as it is and left to the terminal.
 */
export function createWordWrapper(
  write: (text: string) => void,
  width: () => number | undefined,
): WordWrapper {
  let column = 0;
  let indent = "";
  let pendingSpaces = "";
  const word = (text: string) => {
    const size = displayWidth(text);
    const limit = width();
    const spaces = displayWidth(pendingSpaces);
    if (limit !== undefined && column > displayWidth(indent) && column + spaces + size > limit) {
      write(`\n${indent}`);
      column = displayWidth(indent);
    } else if (pendingSpaces !== "") {
      write(pendingSpaces);
      column += spaces;
    }
    pendingSpaces = "";
    write(text);
    column += size;
    if (limit !== undefined && column > limit) column %= limit;
  };
  return {
    words(text) {
      // Pieces alternate: words and the runs of spaces between them.
      for (const piece of text.split(/( +)/)) {
        if (piece === "") continue;
        if (piece.startsWith(" ")) pendingSpaces += piece;
        else word(piece);
      }
    },
    newline() {
      write("\n");
      column = 0;
      indent = "";
      pendingSpaces = "";
    },
    setHangingIndent(next) {
      indent = next;
    },
    get column() {
      return column;
    },
  };
}
