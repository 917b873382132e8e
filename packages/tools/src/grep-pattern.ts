// A grep pattern checked and prepared for the search workers: the line regex, whether a
// whole chunk of lines may be tested at once, and the plain text of a literal pattern.

/** A pattern ready for the workers. */
export interface GrepPattern {
  /** The pattern as given. */
  readonly source: string;
  /** Flags of the per-line regex: "" or "i". */
  readonly flags: string;
  /**
   * Whether a file may be skipped when the regex (with the `m` flag) finds nothing in a
   * whole chunk of lines. Lookarounds can see across line ends, so they get line tests only.
   */
  readonly prefilter: boolean;
  /** The text a case-sensitive pattern without regex syntax stands for, searched as bytes. */
  readonly literal: string | null;
  /**
   * Text every match of a case-sensitive pattern contains (`handle` in `handle\w+\(`): a
   * chunk of bytes without it is skipped before it is decoded or the regex runs.
   */
  readonly required: string | null;
}

const META = new Set([..."\\^$.|?*+()[]{}"]);
const ESCAPED_PUNCTUATION = /[\\^$.|?*+()[\]{}/\-:#'"`~!@%&=<>,;_]/;

/** The plain text a regex without syntax stands for (`a\.b` is `a.b`), or null. */
export function literalText(pattern: string): string | null {
  let text = "";
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index] as string;
    if (character === "\\") {
      const next = pattern[index + 1];
      if (next === undefined || !ESCAPED_PUNCTUATION.test(next)) return null;
      text += next;
      index++;
    } else if (META.has(character)) {
      return null;
    } else {
      text += character;
    }
  }
  return text;
}

/** The index just past the `[...]` class that opens at `start` (in JS, `[]` is a class). */
function skipClass(pattern: string, start: number): number {
  for (let index = start + 1; index < pattern.length; index++) {
    if (pattern[index] === "\\") index++;
    else if (pattern[index] === "]") return index + 1;
  }
  return pattern.length;
}

/** The index just past the group that opens at `start`. */
function skipGroup(pattern: string, start: number): number {
  let depth = 0;
  for (let index = start; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === "\\") index++;
    else if (character === "[") index = skipClass(pattern, index) - 1;
    else if (character === "(") depth++;
    else if (character === ")" && --depth === 0) return index + 1;
  }
  return pattern.length;
}

const QUANTIFIER = /^(?:[?*+]|\{(\d+)(?:,\d*)?\})\??/;

/** Runs of plain characters that every match of `pattern` must contain (none for `a|b`). */
export function requiredRuns(pattern: string): string[] {
  const runs: string[] = [];
  let run = "";
  const close = () => {
    if (run !== "") runs.push(run);
    run = "";
  };
  for (let index = 0; index < pattern.length;) {
    const character = pattern[index] as string;
    if (character === "|") return [];
    let atom: string | undefined;
    if (character === "\\") {
      const next = pattern[index + 1] ?? "";
      atom = ESCAPED_PUNCTUATION.test(next) ? next : undefined;
      index += 2;
    } else if (character === "[") {
      index = skipClass(pattern, index);
    } else if (character === "(") {
      index = skipGroup(pattern, index);
    } else {
      atom = META.has(character) ? undefined : character;
      index++;
    }
    const quantifier = QUANTIFIER.exec(pattern.slice(index));
    if (quantifier) index += quantifier[0].length;
    const optional =
      quantifier !== null &&
      (quantifier[0][0] === "?" || quantifier[0][0] === "*" || Number(quantifier[1]) === 0);
    if (atom !== undefined && !optional) run += atom;
    if (atom === undefined || quantifier !== null) close();
  }
  close();
  return runs;
}

// Characters of source code and prose from common to rare: a search for text that starts
// with a rare one skips ahead fast (V8 looks for the first character with memchr).
const COMMON = " etaoinsrhldcumfpgwybvkxjqz\t.,;()=_\"'/:-{}0123456789";

function rarity(character: string): number {
  const rank = COMMON.indexOf(character);
  if (rank >= 0) return rank;
  if (/[A-Z]/.test(character)) return COMMON.length + 1;
  return COMMON.length + 2;
}

/**
 * Text every match must contain, chosen to search fast: among the required runs of 3 or
 * more characters, the tail (of 3 or more) that starts with the rarest character.
 */
export function requiredText(pattern: string): string | null {
  let best: { text: string; score: number } | undefined;
  for (const run of requiredRuns(pattern)) {
    for (let start = 0; start + 3 <= run.length; start++) {
      const text = run.slice(start);
      const score = rarity(text[0] as string) * 16 + Math.min(text.length, 15);
      if (!best || score > best.score) best = { text, score };
    }
  }
  return best?.text ?? null;
}

/** Checks a JavaScript regular expression for grep; the error is written for the model. */
export function compileGrepPattern(
  pattern: string,
  caseSensitive: boolean,
): { ok: true; pattern: GrepPattern } | { ok: false; message: string } {
  const flags = caseSensitive ? "" : "i";
  try {
    new RegExp(pattern, `${flags}m`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      message: `The pattern '${pattern}' is not a valid JavaScript regular expression (${reason}). Escape special characters such as ( [ { . * + ? with a backslash, or search for plain text.`,
    };
  }
  return {
    ok: true,
    pattern: {
      source: pattern,
      flags,
      prefilter: !/\(\?<?[=!]/.test(pattern),
      literal: caseSensitive ? literalText(pattern) : null,
      required: caseSensitive ? requiredText(pattern) : null,
    },
  };
}
