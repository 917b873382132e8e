import { PatternSyntaxError } from "./pattern-node.js";

/** POSIX character classes inside brackets, `[[:alpha:]]`, as code point tests (ASCII). */
const POSIX_CLASSES: Readonly<Record<string, (code: number) => boolean>> = {
  alnum: (c) => isAlpha(c) || isDigit(c),
  alpha: (c) => isAlpha(c),
  blank: (c) => c === 0x20 || c === 0x09,
  cntrl: (c) => c < 0x20 || c === 0x7f,
  digit: (c) => isDigit(c),
  graph: (c) => c > 0x20 && c < 0x7f,
  lower: (c) => c >= 0x61 && c <= 0x7a,
  print: (c) => c >= 0x20 && c < 0x7f,
  punct: (c) => c > 0x20 && c < 0x7f && !isAlpha(c) && !isDigit(c),
  space: (c) => c === 0x20 || (c >= 0x09 && c <= 0x0d),
  upper: (c) => c >= 0x41 && c <= 0x5a,
  word: (c) => isAlpha(c) || isDigit(c) || c === 0x5f,
  xdigit: (c) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66),
};

function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

const BACKSLASH = 0x5c;
const CLOSE = 0x5d; // ]
const OPEN = 0x5b; // [
const DASH = 0x2d;
const COLON = 0x3a;

/** A parsed `[...]`: its test and the index of its closing `]`. */
export interface BracketExpression {
  readonly test: (code: number) => boolean;
  readonly end: number;
}

/**
 * Parses the bracket expression opening at `codes[start]` (`[`) as bash and git read one:
 * `!` or `^` first negates, a `]` first is a member, `a-z` is a range, `[:alpha:]` a POSIX
 * class, `\` escapes the next character. Returns undefined when no `]` closes it (the `[`
 * is then a literal character); throws {@link PatternSyntaxError} for a reversed range or
 * an unknown POSIX class.
 */
export function parseBracket(
  codes: readonly number[],
  start: number,
  limit = codes.length,
): BracketExpression | undefined {
  let i = start + 1;
  let negated = false;
  if (codes[i] === 0x21 || codes[i] === 0x5e) {
    negated = true;
    i++;
  }
  const ranges: number[] = [];
  const named: ((code: number) => boolean)[] = [];
  for (let first = true; i < limit; first = false) {
    let code = codes[i] as number;
    if (code === CLOSE && !first) {
      const test = (c: number) => {
        let member = named.some((inClass) => inClass(c));
        for (let r = 0; !member && r < ranges.length; r += 2)
          member = c >= (ranges[r] as number) && c <= (ranges[r + 1] as number);
        return member !== negated;
      };
      return { test, end: i };
    }
    if (code === OPEN && codes[i + 1] === COLON) {
      const close = findPosixEnd(codes, i + 2, limit);
      if (close !== undefined) {
        const name = String.fromCodePoint(...codes.slice(i + 2, close));
        const inClass = POSIX_CLASSES[name];
        if (inClass === undefined) {
          throw new PatternSyntaxError(
            `'[:${name}:]' is not a character class; use one of ${Object.keys(POSIX_CLASSES).join(", ")}.`,
          );
        }
        named.push(inClass);
        i = close + 2;
        continue;
      }
    }
    if (code === BACKSLASH && i + 1 < limit) code = codes[++i] as number;
    let high = code;
    if (codes[i + 1] === DASH && i + 2 < limit && codes[i + 2] !== CLOSE) {
      i += 2;
      high = codes[i] as number;
      if (high === BACKSLASH && i + 1 < limit) high = codes[++i] as number;
      if (high < code) {
        throw new PatternSyntaxError(
          `The range '${String.fromCodePoint(code)}-${String.fromCodePoint(high)}' in a character class runs backwards. Check the [...] parts.`,
        );
      }
    }
    ranges.push(code, high);
    i++;
  }
  return undefined;
}

/** The index of the `:` of the `:]` closing a POSIX class name that starts at `from`. */
function findPosixEnd(codes: readonly number[], from: number, limit: number): number | undefined {
  for (let i = from; i + 1 < limit; i++) {
    const code = codes[i] as number;
    if (code === COLON && codes[i + 1] === CLOSE) return i;
    if (!isAlpha(code)) return undefined;
  }
  return undefined;
}
