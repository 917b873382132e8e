import { eastAsianWidth } from "get-east-asian-width";

/** The SGR and other CSI sequences the renderer adds, and OSC sequences: no width. */
const ESCAPES = new RegExp(
  String.raw`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)`,
  "g",
);
/** Code points that take no column: combining marks, format characters, controls. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]$/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;

/**
 * The columns `text` takes on a terminal: escape sequences none, combining and format
 * characters none, East Asian wide and fullwidth characters and emoji two, others one.
 * Code point by code point (get-east-asian-width's tables): text on its way to the screen
 * has been escaped (`terminal-safe.ts`), so the joiners that make one emoji of several are
 * shown as escapes and each emoji stands alone. Printable ASCII, the common case, is
 * counted without a lookup. Chosen over string-width, whose grapheme segmenter costs tens
 * of milliseconds to create at start-up on a busy machine.
 */
export function displayWidth(text: string): number {
  const plain = text.includes("\x1b") ? text.replace(ESCAPES, "") : text;
  if (/^[ -~]*$/.test(plain)) return plain.length;
  let width = 0;
  for (const character of plain) {
    const code = character.codePointAt(0) ?? 0;
    if (code >= 0x20 && code < 0x7f) width += 1;
    else if (ZERO_WIDTH.test(character) || (code >= 0xfe00 && code <= 0xfe0f)) continue;
    else if (code > 0xff && PICTOGRAPHIC.test(character) && code >= 0x1f000) width += 2;
    else width += eastAsianWidth(code);
  }
  return width;
}
