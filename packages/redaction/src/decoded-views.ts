/** A text with its escapes decoded, and the way back to the original's offsets. */
export interface DecodedView {
  readonly text: string;
  /** The offset in the original text of the decoded character at `index` (or of the end). */
  originalIndex(index: number): number;
}

/**
 * `text` with each `%XX` replaced by the character with that code, or `undefined` when
 * it has none: `password%3Dhunter2` reads `password=hunter2`, `token=abc%2Bdef` reads
 * `token=abc+def`, so the rules see URL-encoded secrets as they would be sent. Bytes of
 * multi-byte characters decode to one character each, which no rule depends on.
 */
export function percentDecoded(text: string): DecodedView | undefined {
  return decoded(text, /%[0-9A-Fa-f]{2}/g, (escape) =>
    String.fromCharCode(parseInt(escape.slice(1), 16)),
  );
}

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };

/**
 * `text` with JSON and shell-style backslash escapes decoded (`\n`, `\t`, `\"`, `\\`,
 * `\/`, `\u0041`), or `undefined` when it has none: a JSON document printed inside a JSON
 * string, or a `.env` file serialised into one, reads as the original lines, so `\nAWS_KEY=`
 * is a line start again and `\"password\"` a quoted key.
 */
export function backslashUnescaped(text: string): DecodedView | undefined {
  return decoded(text, /\\(?:u[0-9A-Fa-f]{4}|[nrtbf"\\/])/g, (escape) => {
    const kind = escape.charAt(1);
    if (kind === "u") return String.fromCharCode(parseInt(escape.slice(2), 16));
    return SIMPLE_ESCAPES[kind] ?? kind;
  });
}

/** Each match of `escape` (global) replaced by `decode(match)`, one character long. */
function decoded(
  text: string,
  escape: RegExp,
  decode: (escape: string) => string,
): DecodedView | undefined {
  const parts: string[] = [];
  // Runs of the decoded text: where each starts there and in the original, and whether
  // it is one decoded escape or a copied stretch.
  const decodedStarts: number[] = [];
  const originalStarts: number[] = [];
  const escapes: boolean[] = [];
  let decodedLength = 0;
  const addRun = (part: string, originalStart: number, isEscape: boolean): void => {
    parts.push(part);
    decodedStarts.push(decodedLength);
    originalStarts.push(originalStart);
    escapes.push(isEscape);
    decodedLength += part.length;
  };
  let copiedFrom = 0;
  escape.lastIndex = 0;
  for (let match = escape.exec(text); match; match = escape.exec(text)) {
    if (match.index > copiedFrom) addRun(text.slice(copiedFrom, match.index), copiedFrom, false);
    addRun(decode(match[0]), match.index, true);
    copiedFrom = match.index + match[0].length;
  }
  if (copiedFrom === 0) return undefined;
  if (copiedFrom < text.length) addRun(text.slice(copiedFrom), copiedFrom, false);
  return {
    text: parts.join(""),
    originalIndex(position) {
      if (position >= decodedLength) return text.length;
      let low = 0;
      let high = decodedStarts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if ((decodedStarts[middle] ?? 0) <= position) low = middle;
        else high = middle - 1;
      }
      const originalStart = originalStarts[low] ?? 0;
      if (escapes[low]) return originalStart;
      return originalStart + position - (decodedStarts[low] ?? 0);
    },
  };
}
