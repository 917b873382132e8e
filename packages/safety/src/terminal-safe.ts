/**
 * Untrusted text made safe to print on a terminal. The model's words, tool output, tool
 * names and tool inputs are written by the model (or by whatever it read), so they must not
 * reach the terminal as control sequences: an ESC can clear the screen, move the cursor,
 * rewrite the approval question, set the window title or the clipboard (OSC 52); a
 * carriage return or backspace overwrites what was printed; bidirectional overrides
 * reorder a line; zero-width characters hide text.
 *
 * Every such character is shown instead as a visible escape, written as in a JavaScript
 * string: `\r`, `\t`, `\b`, `\v`, `\f`, `\n` when a newline is not kept, `\xHH` for the
 * other C0 controls, DEL and the C1 controls (`\x1b`, `\x7f`, `\x9b`), `\uHHHH` above
 * (`\u202e`, `\u200b`), `\u{HHHHH}` beyond the BMP (`\u{e0041}`). The escaping is per
 * character, so text that arrives in pieces cannot assemble a sequence across them: an
 * ESC at the end of one piece is already `\x1b` before the next piece arrives.
 *
 * XZatoma's own styling is added after escaping, to the escaped text; it is never removed.
 */

/** Options of {@link toTerminalSafe}. */
export interface TerminalSafeOptions {
  /** Keep line feeds as line breaks. Default true; false for one-line output. */
  readonly keepNewlines?: boolean;
  /** Keep tab characters. Default true; false where a tab could hide or misalign text. */
  readonly keepTabs?: boolean;
  /**
   * Also escape what only looks like something else, for text a person must read exactly
   * (the approval prompt): spaces other than U+0020, variation selectors (U+FE0F after an
   * emoji excepted), and combining marks placed on an ASCII character. Default false.
   */
  readonly strict?: boolean;
  /**
   * Styles each escape, so that it cannot be mistaken for the same characters typed
   * literally (for example inverse video). Its output is trusted. Default: unstyled.
   */
  readonly mark?: (escape: string) => string;
}

const ZERO_WIDTH_JOINER = 0x200d;
const FORMAT = /\p{Cf}/u;
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const EMOJI_MODIFIER = /\p{Emoji_Modifier}/u;
const SPACE_SEPARATOR = /\p{Zs}/u;
const MARK = /\p{M}/u;
/** Text made only of printable ASCII, line feeds and tabs needs no work at all. */
const PLAIN = /^[\t\n -~]*$/;

const NAMED: Readonly<Record<number, string>> = {
  0x08: "\\b",
  0x09: "\\t",
  0x0a: "\\n",
  0x0b: "\\v",
  0x0c: "\\f",
  0x0d: "\\r",
};

const isPictographic = (codePoint: number | undefined) =>
  codePoint !== undefined && PICTOGRAPHIC.test(String.fromCodePoint(codePoint));

/** A ZWJ that joins two emoji into one (👨‍👩‍👧) only changes which picture is drawn. */
function joinsEmoji(previous: number | undefined, next: number | undefined): boolean {
  if (previous === undefined || !isPictographic(next)) return false;
  return (
    previous === 0xfe0f ||
    isPictographic(previous) ||
    EMOJI_MODIFIER.test(String.fromCodePoint(previous))
  );
}

function mustEscape(
  codePoint: number,
  character: string,
  previous: number | undefined,
  next: number | undefined,
  options: TerminalSafeOptions,
): boolean {
  if (codePoint === 0x0a) return options.keepNewlines === false;
  if (codePoint === 0x09) return options.keepTabs === false;
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f)) return true;
  if (codePoint < 0x7f) return false;
  // Line and paragraph separators: some terminals and tools break lines on them.
  if (codePoint === 0x2028 || codePoint === 0x2029) return true;
  if (codePoint === ZERO_WIDTH_JOINER) return !joinsEmoji(previous, next);
  if (codePoint >= 0xfe00 && codePoint <= 0xfe0f)
    return options.strict === true && !(codePoint === 0xfe0f && isPictographic(previous));
  // Bidi controls, zero-width spaces, soft hyphens, tag characters, Hangul fillers, ...
  if (FORMAT.test(character) || DEFAULT_IGNORABLE.test(character)) return true;
  if (options.strict === true) {
    if (SPACE_SEPARATOR.test(character)) return true;
    if (previous !== undefined && previous < 0x80 && MARK.test(character)) return true;
  }
  return false;
}

/** The visible escape of one code point. */
export function escapeCodePoint(codePoint: number): string {
  const named = NAMED[codePoint];
  if (named !== undefined) return named;
  const hex = codePoint.toString(16);
  if (codePoint <= 0xff) return `\\x${hex.padStart(2, "0")}`;
  if (codePoint <= 0xffff) return `\\u${hex.padStart(4, "0")}`;
  return `\\u{${hex}}`;
}

/**
 * The escaped form of each code point of `text`, with the code points just before and
 * after it (from neighbouring pieces of a stream) as context for emoji joiners.
 */
function escapePieces(
  text: string,
  options: TerminalSafeOptions,
  before?: number,
  after?: number,
): string[] {
  const characters = Array.from(text);
  const points = characters.map((character) => character.codePointAt(0) ?? 0);
  return characters.map((character, index) => {
    const codePoint = points[index] ?? 0;
    const previous = index > 0 ? points[index - 1] : before;
    const next = index < points.length - 1 ? points[index + 1] : after;
    if (!mustEscape(codePoint, character, previous, next, options)) return character;
    const escape = escapeCodePoint(codePoint);
    return options.mark ? options.mark(escape) : escape;
  });
}

function escapeWithContext(
  text: string,
  options: TerminalSafeOptions,
  before?: number,
  after?: number,
): string {
  if (PLAIN.test(text) && options.keepNewlines !== false && options.keepTabs !== false) return text;
  return escapePieces(text, options, before, after).join("");
}

/**
 * `text` with every control, bidirectional and invisible format character replaced by a
 * visible escape; see the module comment for the forms.
 *
 * @example toTerminalSafe("ok\x1b]0;owned\x07") === "ok\\x1b]0;owned\\x07"
 */
export function toTerminalSafe(text: string, options: TerminalSafeOptions = {}): string {
  return escapeWithContext(text, options);
}

/** {@link toTerminalSafe} for one line: newlines and tabs escaped too. */
export function toTerminalSafeLine(text: string, options: TerminalSafeOptions = {}): string {
  return escapeWithContext(text, { ...options, keepNewlines: false, keepTabs: false });
}

/**
 * {@link toTerminalSafeLine} cut to at most `max` characters, ending in `…` when cut; an
 * escape is kept whole or left out, never cut in half.
 */
export function toTerminalSafeLineCut(text: string, max: number): string {
  const pieces = escapePieces(text, { keepNewlines: false, keepTabs: false });
  let out = "";
  let length = 0;
  for (const [index, piece] of pieces.entries()) {
    const size = Array.from(piece).length;
    const last = index === pieces.length - 1;
    if (length + size > (last ? max : max - 1)) return `${out}…`;
    out += piece;
    length += size;
  }
  return out;
}

/** Whether {@link toTerminalSafe} would change `text` under `options`. */
export function needsEscaping(text: string, options: TerminalSafeOptions = {}): boolean {
  return escapeWithContext(text, { ...options, mark: undefined }) !== text;
}

/** Escapes text that arrives in pieces; see {@link createTerminalSafeStream}. */
export interface TerminalSafeStream {
  /** The escaped form of this piece; a trailing emoji joiner or half surrogate pair waits for the next. */
  write(piece: string): string;
  /** What is still held back, escaped; the stream starts afresh. */
  end(): string;
}

/**
 * {@link toTerminalSafe} for a stream of pieces (the model's text deltas). Escaping is per
 * character, so no sequence can form across pieces; the stream only holds back a trailing
 * zero-width joiner until it knows whether an emoji follows, and half of a surrogate pair.
 */
export function createTerminalSafeStream(options: TerminalSafeOptions = {}): TerminalSafeStream {
  let held = "";
  let previous: number | undefined;
  return {
    write(piece) {
      let text = held + piece;
      held = "";
      let cut = text.length;
      const highSurrogate = text.charCodeAt(cut - 1);
      if (highSurrogate >= 0xd800 && highSurrogate <= 0xdbff) cut--;
      if (text.charCodeAt(cut - 1) === ZERO_WIDTH_JOINER) cut--;
      held = text.slice(cut);
      text = text.slice(0, cut);
      if (text === "") return "";
      const out = escapeWithContext(text, options, previous, held.codePointAt(0));
      previous = Array.from(text).at(-1)?.codePointAt(0);
      return out;
    },
    end() {
      const out = held === "" ? "" : escapeWithContext(held, options, previous);
      held = "";
      previous = undefined;
      return out;
    },
  };
}

/**
 * `JSON.stringify(value, null, space)` safe to print on a terminal and to split into lines
 * anywhere: besides what JSON escapes itself (C0 controls), DEL, C1 controls, U+2028,
 * U+2029, bidirectional and invisible characters are written as `\uHHHH` escapes. The
 * result parses to the same value.
 */
export function toTerminalSafeJson(value: unknown, space?: number): string {
  const json = JSON.stringify(value, null, space) as string | undefined;
  if (json === undefined || PLAIN.test(json)) return json ?? "null";
  const points = Array.from(json, (character) => character.codePointAt(0) ?? 0);
  const characters = Array.from(json);
  let out = "";
  for (let index = 0; index < points.length; index++) {
    const codePoint = points[index] ?? 0;
    const character = characters[index] ?? "";
    const previous = index > 0 ? points[index - 1] : undefined;
    const next = points[index + 1];
    if (codePoint > 0x7e && mustEscape(codePoint, character, previous, next, { strict: true })) {
      for (let unit = 0; unit < character.length; unit++)
        out += `\\u${character.charCodeAt(unit).toString(16).padStart(4, "0")}`;
    } else {
      out += character;
    }
  }
  return out;
}
