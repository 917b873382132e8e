import path from "node:path";

/** A program name as the rules match it. */
export interface ProgramName {
  /** The basename, path-normalised, with control and invisible characters removed. */
  readonly name: string;
  /** Named with a directory (`/bin/rm`, `./ls`): it does not come from the trusted PATH. */
  readonly hasPath: boolean;
  /** Why the spelling itself is suspicious (control, invisible or non-ASCII characters), or null. */
  readonly problem: string | null;
}

// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/gu;
/** Format characters (zero-width, bidi controls, BOM, soft hyphen) and blank look-alikes. */
const INVISIBLE = /[\p{Cf}\u115f\u1160\u3164\uffa0\u180e\u2800]/gu;

/** `text` with control and invisible characters shown as `\uXXXX`, for reasons. */
export function printable(text: string): string {
  return text.replace(
    new RegExp(`${CONTROL.source}|${INVISIBLE.source}`, "gu"),
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`,
  );
}

/** Whether `text` holds a control character other than tab and newline. */
export function hasControlCharacter(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  return /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u.test(text);
}

/** Whether `text` holds a zero-width, bidi or other invisible format character. */
export function hasInvisibleCharacter(text: string): boolean {
  return new RegExp(INVISIBLE.source, "u").test(text);
}

/** `text` without invisible format characters. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, "");
}

/**
 * Normalises an unquoted program word: strips control and invisible characters (noting
 * them), normalises a path (`/usr/bin/../bin/rm`) and keeps its basename.
 */
export function normalizeProgram(word: string): ProgramName {
  let problem: string | null = null;
  if (new RegExp(CONTROL.source, "u").test(word)) {
    problem = `the program name \`${printable(word)}\` contains a control character`;
  } else if (hasInvisibleCharacter(word)) {
    problem = `the program name \`${printable(word)}\` contains an invisible character`;
  } else if (/[^\x21-\x7e]/.test(word)) {
    problem = `the program name \`${word}\` is not plain ASCII, so it may imitate another program`;
  }
  const cleaned = word.replace(CONTROL, "").replace(INVISIBLE, "");
  const hasPath = cleaned.includes("/");
  // Lower case: on case-insensitive file systems (macOS) `RM` runs rm.
  const name = (
    hasPath ? path.posix.basename(path.posix.normalize(cleaned)) : cleaned
  ).toLowerCase();
  return { name, hasPath, problem };
}
