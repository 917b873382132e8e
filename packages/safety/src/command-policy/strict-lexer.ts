import { hasInvisibleCharacter } from "./normalize-program.js";

/** Characters a plain unquoted word may hold (no `~`, `#`, `!`, globs, braces or operators). */
const SAFE = /^[A-Za-z0-9_\-./:=+,%@^]$|^[\p{L}\p{N}]$/u;
/** Operators that join simple commands without changing what each one does. */
const JOINERS = ["&&", "||", "|", ";"] as const;
/** Redirects a read-only command may carry: errors or output discarded, or one stream onto another. */
const DISCARDS = /^(?:[12]?>>?\/dev\/null|&>\/dev\/null|[12]?>&[12])(?=[ \t]|$|[;&|])/;

function printableText(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are refused
  return !/[\u0000-\u001f\u007f-\u009f]/.test(text) && !hasInvisibleCharacter(text);
}

/**
 * An independent second lexer for the `direct` outcome: splits `text` into simple commands
 * of words when it is only plain words (safe characters, single quotes, double quotes without
 * `$`, backtick or backslash, and backslash escapes) joined by `|`, `&&`, `||` and `;`, each
 * command optionally discarding output (`2>/dev/null`, `2>&1`) and reading a file (`< FILE`,
 * left out of the words); else returns null. A command
 * runs directly only when this and the tree-sitter analysis agree command for command and
 * word for word, so a difference between tree-sitter and bash cannot make a command direct.
 */
export function lexPlainCommands(text: string): string[][] | null {
  const trimmed = text.replace(/^[ \t]+/, "").replace(/[ \t\n]+$/, "");
  const commands: string[][] = [];
  let words: string[] = [];
  let current: string | null = null;
  // After `<`: the next word is the file read, not an argument (the walk checks it as a path).
  let input = false;
  const endWord = () => {
    if (current !== null && input) input = false;
    else if (current !== null) words.push(current);
    current = null;
  };
  const endCommand = (): boolean => {
    endWord();
    if (words.length === 0 || input) return false;
    if (/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(words[0] ?? "")) return false;
    commands.push(words);
    words = [];
    return true;
  };
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed.charAt(i);
    const rest = trimmed.slice(i);
    const joiner = JOINERS.find((operator) => rest.startsWith(operator));
    const discard =
      current === null || /^\d$/.test(current)
        ? DISCARDS.exec(current === null ? rest : `${current}${rest}`)
        : null;
    if (discard !== null) {
      i += discard[0].length - (current?.length ?? 0) - 1;
      current = null;
    } else if (joiner !== undefined) {
      if (!endCommand()) return null;
      i += joiner.length - 1;
    } else if (c === " " || c === "\t") {
      endWord();
    } else if (c === "<" && current === null && !input && !/^<[<&>(]/.test(rest)) {
      input = true;
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
    } else if (SAFE.test(c) || (c === "~" && /[A-Za-z0-9_]$/.test(current ?? ""))) {
      // `~` only inside a word (`HEAD~1`), where bash never expands it.
      current = (current ?? "") + c;
    } else {
      return null;
    }
  }
  return endCommand() ? commands : null;
}
