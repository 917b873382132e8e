// The parser of globs and gitignore rules: text to pattern nodes. Nothing here matches;
// see automaton.ts.
import { parseBracket } from "./bracket-expression.js";
import { PatternSyntaxError, SLASH, type GroupOp, type PatternNode } from "./pattern-node.js";

/** What a pattern language has beyond `*`, `?`, `[...]`, `**` and `\` escapes. */
export interface GlobSyntax {
  /** `{a,b}` alternatives and `{1..9}` / `{a..f}` ranges. */
  readonly braces: boolean;
  /** bash's extended globs: `@(a|b)`, `?(a)`, `*(a)`, `+(a)`, `!(a)`. */
  readonly extglob: boolean;
}

/** A brace range such as `{1..100}` may name at most this many values. */
export const MAX_BRACE_RANGE = 1000;

const BACKSLASH = 0x5c;
const STAR = 0x2a;
const QUESTION = 0x3f;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;
const BAR = 0x7c;
const EXTGLOB_PREFIXES = new Set([0x40, QUESTION, STAR, 0x2b, 0x21]); // @ ? * + !

const char = (code: number): PatternNode => ({ kind: "char", code });

/**
 * Parses a glob (code points, no leading `!` negation) into pattern nodes. `**` is a
 * globstar when it is a whole name: followed by `/` it is zero or more directories, at the
 * end of the pattern it is everything below. Elsewhere it is `*`. A `[` or `{` that
 * nothing closes, and a `{x}` without a comma or a range, are literal characters.
 */
export function parseGlob(codes: readonly number[], syntax: GlobSyntax): PatternNode[] {
  const parser = new GlobParser(codes, syntax);
  return parser.parse(0, codes.length, true);
}

class GlobParser {
  constructor(
    private readonly codes: readonly number[],
    private readonly syntax: GlobSyntax,
  ) {}

  parse(from: number, to: number, nameStart: boolean): PatternNode[] {
    const codes = this.codes;
    const nodes: PatternNode[] = [];
    let i = from;
    const atNameStart = (index: number) =>
      index === from ? nameStart : codes[index - 1] === SLASH;
    while (i < to) {
      const code = codes[i] as number;
      if (code === BACKSLASH) {
        if (i + 1 >= to)
          throw new PatternSyntaxError("The pattern ends with a lone '\\'; escape it as '\\\\'.");
        nodes.push(char(codes[i + 1] as number));
        i += 2;
        continue;
      }
      if (this.syntax.extglob && EXTGLOB_PREFIXES.has(code) && codes[i + 1] === OPEN_PAREN) {
        const group = this.scan(i + 1, to, OPEN_PAREN, CLOSE_PAREN, BAR);
        if (group !== undefined) {
          const alternatives = this.slices(i + 2, group, atNameStart(i));
          nodes.push({ kind: "group", op: String.fromCharCode(code) as GroupOp, alternatives });
          i = group.end + 1;
          continue;
        }
      }
      if (code === STAR) {
        let end = i;
        while (end < to && codes[end] === STAR) end++;
        if (end - i >= 2 && atNameStart(i) && codes[end] === SLASH && end < to) {
          nodes.push({ kind: "globstar" });
          i = end + 1;
        } else if (end - i >= 2 && atNameStart(i) && end === codes.length) {
          nodes.push({ kind: "globstar" }, { kind: "star" });
          i = end;
        } else {
          nodes.push({ kind: "star" });
          i = end;
        }
        continue;
      }
      if (code === QUESTION) {
        nodes.push({ kind: "any" });
        i++;
        continue;
      }
      if (code === OPEN_BRACKET) {
        const bracket = parseBracket(codes, i, to);
        if (bracket !== undefined) {
          nodes.push({ kind: "class", test: bracket.test });
          i = bracket.end + 1;
          continue;
        }
      }
      if (code === OPEN_BRACE && this.syntax.braces) {
        const brace = this.scan(i, to, OPEN_BRACE, CLOSE_BRACE, COMMA);
        if (brace !== undefined) {
          if (brace.separators.length > 0) {
            const alternatives = this.slices(i + 1, brace, atNameStart(i));
            nodes.push({ kind: "group", op: "@", alternatives });
          } else {
            const range = braceRange(String.fromCodePoint(...codes.slice(i + 1, brace.end)));
            if (range !== undefined) nodes.push(range);
            else nodes.push(char(code), ...this.parse(i + 1, brace.end, false), char(CLOSE_BRACE));
          }
          i = brace.end + 1;
          continue;
        }
      }
      nodes.push(char(code));
      i++;
    }
    return nodes;
  }

  /** The alternatives between `from` and the group's end, split at its separators. */
  private slices(
    from: number,
    group: { readonly end: number; readonly separators: readonly number[] },
    nameStart: boolean,
  ): PatternNode[][] {
    const alternatives: PatternNode[][] = [];
    let start = from;
    for (const end of [...group.separators, group.end]) {
      alternatives.push(this.parse(start, end, nameStart));
      start = end + 1;
    }
    return alternatives;
  }

  /**
   * The closing `close` of the group opening at `open` and its top-level `separator`s,
   * skipping escapes, bracket expressions and nested groups; undefined when unclosed.
   */
  private scan(
    open: number,
    to: number,
    opening: number,
    close: number,
    separator: number,
  ): { end: number; separators: number[] } | undefined {
    const codes = this.codes;
    const separators: number[] = [];
    let depth = 0;
    let other = 0; // parentheses inside braces, braces inside parentheses
    for (let i = open + 1; i < to; i++) {
      const code = codes[i] as number;
      if (code === BACKSLASH) {
        i++;
      } else if (code === OPEN_BRACKET) {
        const bracket = parseBracket(codes, i, to);
        if (bracket !== undefined) i = bracket.end;
      } else if (code === opening) {
        depth++;
      } else if (code === close) {
        if (depth === 0) return { end: i, separators };
        depth--;
      } else if (code === OPEN_BRACE || code === OPEN_PAREN) {
        other++;
      } else if ((code === CLOSE_BRACE || code === CLOSE_PAREN) && other > 0) {
        other--;
      } else if (code === separator && depth === 0 && other === 0) {
        separators.push(i);
      }
    }
    return undefined;
  }
}

/** `{1..5}`, `{01..10}`, `{1..9..2}`, `{a..e}` as a group of literal alternatives. */
function braceRange(text: string): PatternNode | undefined {
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(text);
  const letters = /^([A-Za-z])\.\.([A-Za-z])$/.exec(text);
  if (numeric === null && letters === null) return undefined;
  const values: string[] = [];
  const tooMany = () =>
    new PatternSyntaxError(
      `The brace range '{${text}}' names more than ${MAX_BRACE_RANGE} values; give a smaller range or a wildcard.`,
    );
  if (letters !== null) {
    const from = (letters[1] as string).charCodeAt(0);
    const to = (letters[2] as string).charCodeAt(0);
    for (let c = from; from <= to ? c <= to : c >= to; c += from <= to ? 1 : -1)
      values.push(String.fromCharCode(c));
  } else if (numeric !== null) {
    const [, first = "", last = "", stepText] = numeric;
    const from = Number(first);
    const to = Number(last);
    const step = Math.abs(Number(stepText ?? 1)) || 1;
    if (Math.abs(to - from) / step >= MAX_BRACE_RANGE) throw tooMany();
    const padded = /^-?0\d/.test(first) || /^-?0\d/.test(last);
    const width = Math.max(first.replace("-", "").length, last.replace("-", "").length);
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? step : -step) {
      const digits = String(Math.abs(n)).padStart(padded ? width : 0, "0");
      values.push(n < 0 ? `-${digits}` : digits);
    }
  }
  if (values.length > MAX_BRACE_RANGE) throw tooMany();
  return {
    kind: "group",
    op: "@",
    alternatives: values.map((value) => [...value].map((c) => char(c.codePointAt(0) as number))),
  };
}
