import { XzatomaError } from "@xzatoma/errors";

/**
 * The parsed form of a glob, a gitignore rule or a bash pattern: what the automaton of
 * `automaton.ts` is built from. Characters are Unicode code points.
 */
export type PatternNode =
  /** One character, literally. */
  | { readonly kind: "char"; readonly code: number }
  /** `?`: one character (never `/` in a path). */
  | { readonly kind: "any" }
  /** `*`: any run of characters (never `/` in a path). */
  | { readonly kind: "star" }
  /** `[...]`: one character the class holds (never `/` in a path). */
  | { readonly kind: "class"; readonly test: (code: number) => boolean }
  /** `**` followed by `/`: zero or more whole directories, each with its `/`. */
  | { readonly kind: "globstar" }
  /**
   * Alternatives: `{a,b}` and `@(a|b)` match one, `?(...)` at most one, `*(...)` any
   * number, `+(...)` at least one; `!(...)` matches a run within one name that no
   * alternative matches.
   */
  | {
      readonly kind: "group";
      readonly op: GroupOp;
      readonly alternatives: readonly (readonly PatternNode[])[];
    };

/** How a group repeats its alternatives, after the extglob prefixes of bash. */
export type GroupOp = "@" | "?" | "*" | "+" | "!";

/** The code point of `/`. */
export const SLASH = 0x2f;
/** The code point of `.`. */
export const DOT = 0x2e;

/** A pattern that cannot be parsed (code `PATTERN_INVALID`); the message says what to change. */
export class PatternSyntaxError extends XzatomaError {
  declare readonly code: "PATTERN_INVALID";
  override readonly name = "PatternSyntaxError";

  constructor(message: string) {
    super("PATTERN_INVALID", message);
  }
}

/**
 * A match that needed more steps than its budget allows (code `PATTERN_TOO_COMPLEX`).
 * Matching is linear in the text and the pattern, so only a huge pattern against a huge
 * text gets here; callers refuse (fail closed) instead of guessing.
 */
export class PatternBudgetError extends XzatomaError {
  declare readonly code: "PATTERN_TOO_COMPLEX";
  override readonly name = "PatternBudgetError";

  constructor(message: string) {
    super("PATTERN_TOO_COMPLEX", message);
  }
}
