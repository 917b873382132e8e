import { hasInvisibleCharacter } from "./normalize-program.js";

/** Characters a plain unquoted word may hold (no `~`, `#`, `!`, globs, braces or operators). */
const SAFE = /^[A-Za-z0-9_\-./:=+,%@^]$|^[\p{L}\p{N}]$/u;

function printableText(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are refused
  return !/[\u0000-\u001f\u007f-\u009f]/.test(text) && !hasInvisibleCharacter(text);
}

/**
 * An independent second lexer for the `allow` verdict: splits `text` into words when it
 * is one simple command made only of plain words (safe characters, single quotes, double
 * quotes without `$`, backtick or backslash, and backslash escapes), else returns null.
 * A command is allowed only when this and the tree-sitter parse agree word for word, so a
 * difference between tree-sitter and bash cannot turn into an `allow`.
 */
export function lexPlainCommand(text: string): string[] | null {
  const trimmed = text.replace(/^[ \t]+/, "").replace(/[ \t\n]+$/, "");
  if (/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(trimmed)) return null;
  const words: string[] = [];
  let current: string | null = null;
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed.charAt(i);
    if (c === " " || c === "\t") {
      if (current !== null) words.push(current);
      current = null;
    } else if (c === "'" || c === '"') {
      const end = trimmed.indexOf(c, i + 1);
      if (end === -1) return null;
      const body = trimmed.slice(i + 1, end);
      if (!printableText(body) || (c === '"' && /[$`\\]/.test(body))) return null;
      current = (current ?? "") + body;
      i = end;
    } else if (c === "\\") {
      const next = trimmed.charAt(i + 1);
      if (!/^[\x20-\x7e]$/.test(next)) return null;
      current = (current ?? "") + next;
      i += 1;
    } else if (SAFE.test(c)) {
      current = (current ?? "") + c;
    } else {
      return null;
    }
  }
  if (current !== null) words.push(current);
  return words.length > 0 ? words : null;
}
