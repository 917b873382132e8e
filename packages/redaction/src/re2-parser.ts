import {
  complement,
  DIGIT,
  MAX_CODE_POINT,
  POSIX,
  SPACE,
  WORD,
  type CodeRange,
} from "./code-ranges.js";

/** A parsed RE2 pattern. */
export type Node =
  | { readonly kind: "empty" }
  | { readonly kind: "set"; readonly ranges: readonly CodeRange[]; readonly negated: boolean }
  | { readonly kind: "assert"; readonly source: string }
  | { readonly kind: "group"; readonly capture: boolean; readonly body: Node }
  | { readonly kind: "concat"; readonly items: readonly Node[] }
  | { readonly kind: "alternation"; readonly branches: readonly Node[] }
  | {
      readonly kind: "repeat";
      readonly body: Node;
      readonly min: number;
      readonly max: number;
      readonly lazy: boolean;
    };

interface Flags {
  readonly caseless: boolean;
  readonly dotAll: boolean;
  readonly multiline: boolean;
  readonly ungreedy: boolean;
}

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };

/**
 * Parses a Go RE2 pattern, the syntax of the gitleaks ruleset, into a tree whose classes
 * are resolved to code point ranges under the flags in force where they appear (scoped
 * `(?i)`, `(?i:...)`, `(?-i:...)`, `(?s)`, `(?m)`, `(?U)`). Throws `SyntaxError` on syntax
 * the translator does not know (Unicode classes, lookaround, which RE2 lacks anyway).
 */
export function parseRe2(pattern: string): { readonly node: Node; readonly groups: number } {
  const parser = new Parser(pattern);
  const node = parser.parseAlternation({
    caseless: false,
    dotAll: false,
    multiline: false,
    ungreedy: false,
  });
  if (!parser.done()) parser.fail("unbalanced ')'");
  return { node, groups: parser.groups };
}

class Parser {
  position = 0;
  groups = 0;

  private readonly pattern: string;

  constructor(pattern: string) {
    this.pattern = pattern;
  }

  done(): boolean {
    return this.position >= this.pattern.length;
  }

  fail(message: string): never {
    throw new SyntaxError(`${message} at ${this.position} in ${this.pattern}`);
  }

  private peek(offset = 0): string {
    return this.pattern[this.position + offset] ?? "";
  }

  private eat(text: string): boolean {
    if (!this.pattern.startsWith(text, this.position)) return false;
    this.position += text.length;
    return true;
  }

  parseAlternation(flags: Flags): Node {
    const branches: Node[] = [];
    let current = flags;
    for (;;) {
      const { node, flags: after } = this.parseConcat(current);
      branches.push(node);
      // A flag set in one branch carries into the next ones, as in RE2.
      current = after;
      if (!this.eat("|")) break;
    }
    const [only] = branches;
    return branches.length === 1 && only ? only : { kind: "alternation", branches };
  }

  private parseConcat(initial: Flags): { node: Node; flags: Flags } {
    const items: Node[] = [];
    let flags = initial;
    while (this.position < this.pattern.length && this.peek() !== "|" && this.peek() !== ")") {
      const setFlags = this.flagDirective(flags);
      if (setFlags) {
        flags = setFlags;
        continue;
      }
      const atom = this.parseAtom(flags);
      items.push(this.parseQuantifier(atom, flags));
    }
    return { node: sequence(items), flags };
  }

  /** `(?flags)` alone: changes the flags of the rest of the group. */
  private flagDirective(flags: Flags): Flags | undefined {
    const match = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?\)/.exec(this.pattern.slice(this.position));
    if (!match) return undefined;
    this.position += match[0].length;
    return applyFlags(flags, match[1] ?? "", match[2] ?? "", () => this.fail("unknown flag"));
  }

  private parseAtom(flags: Flags): Node {
    const char = this.peek();
    if (char === "(") return this.parseGroup(flags);
    if (char === "[") return this.parseClass(flags);
    if (char === "\\") return this.parseEscape(flags);
    this.position += 1;
    if (char === ".") {
      return flags.dotAll
        ? { kind: "set", ranges: [[0, MAX_CODE_POINT]], negated: false }
        : { kind: "set", ranges: [[0x0a, 0x0a]], negated: true };
    }
    if (char === "^") return { kind: "assert", source: flags.multiline ? "(?<=^|\\n)" : "^" };
    if (char === "$") return { kind: "assert", source: flags.multiline ? "(?=\\n|$)" : "$" };
    if ("*+?{".includes(char) && char !== "{") this.fail("nothing to repeat");
    const code = char.codePointAt(0) ?? 0;
    if (code > 0xffff) this.position += 1;
    return literal(code, flags);
  }

  private parseGroup(flags: Flags): Node {
    this.position += 1;
    let capture = true;
    let inner = flags;
    const scoped = /^\?([a-zA-Z]*)(?:-([a-zA-Z]*))?:/.exec(this.pattern.slice(this.position));
    if (scoped) {
      this.position += scoped[0].length;
      capture = false;
      inner = applyFlags(flags, scoped[1] ?? "", scoped[2] ?? "", () => this.fail("unknown flag"));
    } else if (this.eat("?P<") || this.eat("?<")) {
      const end = this.pattern.indexOf(">", this.position);
      if (end < 0) this.fail("unterminated group name");
      this.position = end + 1;
    } else if (this.peek() === "?") {
      this.fail("unsupported group");
    }
    if (capture) this.groups += 1;
    const body = this.parseAlternation(inner);
    if (!this.eat(")")) this.fail("missing ')'");
    return { kind: "group", capture, body };
  }

  private parseQuantifier(atom: Node, flags: Flags): Node {
    let min: number;
    let max: number;
    const char = this.peek();
    if (char === "*" || char === "+" || char === "?") {
      this.position += 1;
      min = char === "+" ? 1 : 0;
      max = char === "?" ? 1 : Infinity;
    } else {
      const braces = /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.position));
      if (!braces) return atom;
      this.position += braces[0].length;
      min = Number(braces[1]);
      max = braces[2] === undefined ? min : braces[3] === "" ? Infinity : Number(braces[3]);
    }
    if (atom.kind === "assert" || atom.kind === "empty") this.fail("nothing to repeat");
    const lazy = this.eat("?") !== flags.ungreedy;
    const repeated: Node = { kind: "repeat", body: atom, min, max, lazy };
    if ("*+?{".includes(this.peek()) && /^(?:[*+?]|\{\d)/.test(this.pattern.slice(this.position)))
      this.fail("double repetition");
    return repeated;
  }

  private parseEscape(flags: Flags): Node {
    const next = this.peek(1);
    switch (next) {
      case "b":
      case "B":
        this.position += 2;
        return { kind: "assert", source: `\\${next}` };
      case "A":
        this.position += 2;
        return { kind: "assert", source: "^" };
      case "z":
        this.position += 2;
        return { kind: "assert", source: "$" };
    }
    const ranges = this.classEscape();
    if (ranges) return { kind: "set", ranges: fold(ranges.ranges, flags), negated: ranges.negated };
    return literal(this.escapedCode(), flags);
  }

  /** `\d \D \w \W \s \S`, consumed; `undefined` (nothing consumed) for anything else. */
  private classEscape(): { ranges: CodeRange[]; negated: boolean } | undefined {
    const next = this.peek(1);
    const ranges = { d: DIGIT, w: WORD, s: SPACE }[next.toLowerCase()];
    if (!ranges) return undefined;
    this.position += 2;
    return { ranges, negated: next !== next.toLowerCase() };
  }

  /** A single escaped character: `\n`, `\x41`, `\x{263a}`, `\.`; consumed. */
  private escapedCode(): number {
    this.position += 1;
    const char = this.peek();
    this.position += 1;
    const simple = SIMPLE_ESCAPES[char];
    if (simple !== undefined) return simple;
    if (char === "x") {
      const hex = /^(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{2}))/.exec(
        this.pattern.slice(this.position),
      );
      if (!hex) this.fail("bad \\x escape");
      this.position += hex[0].length;
      return parseInt(hex[1] ?? hex[2] ?? "", 16);
    }
    if (/[0-7]/.test(char)) {
      const octal = /^[0-7]{0,2}/.exec(this.pattern.slice(this.position))?.[0] ?? "";
      this.position += octal.length;
      return parseInt(char + octal, 8);
    }
    if (/[A-Za-z0-9]/.test(char) || char === "") this.fail(`unsupported escape \\${char}`);
    return char.codePointAt(0) ?? 0;
  }

  private parseClass(flags: Flags): Node {
    this.position += 1;
    const negated = this.eat("^");
    const ranges: CodeRange[] = [];
    const negatedParts: CodeRange[][] = [];
    let first = true;
    while (first || this.peek() !== "]") {
      if (this.position >= this.pattern.length) this.fail("missing ']'");
      first = false;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.pattern.slice(this.position));
      if (posix) {
        const set = POSIX[posix[2] ?? ""];
        if (!set) this.fail(`unknown class [:${posix[2]}:]`);
        this.position += posix[0].length;
        if (posix[1]) negatedParts.push(set);
        else ranges.push(...set);
        continue;
      }
      if (this.peek() === "\\") {
        const escaped = this.classEscape();
        if (escaped) {
          if (escaped.negated) negatedParts.push(escaped.ranges);
          else ranges.push(...escaped.ranges);
          continue;
        }
      }
      const low = this.classCode();
      if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== "") {
        this.position += 1;
        const high = this.classCode();
        if (high < low) this.fail("bad range");
        ranges.push([low, high]);
      } else {
        ranges.push([low, low]);
      }
    }
    this.position += 1;
    for (const part of negatedParts) ranges.push(...complement(part));
    return { kind: "set", ranges: fold(ranges, flags), negated };
  }

  private classCode(): number {
    if (this.peek() === "\\") return this.escapedCode();
    const code = this.pattern.codePointAt(this.position) ?? 0;
    this.position += code > 0xffff ? 2 : 1;
    return code;
  }
}

/** One node for a run of nodes. */
export function sequence(items: readonly Node[]): Node {
  const [only] = items;
  if (items.length === 1 && only) return only;
  return items.length === 0 ? { kind: "empty" } : { kind: "concat", items };
}

function applyFlags(flags: Flags, on: string, off: string, fail: () => never): Flags {
  const result = { ...flags };
  for (const [letters, value] of [
    [on, true],
    [off, false],
  ] as const) {
    for (const letter of letters) {
      if (letter === "i") result.caseless = value;
      else if (letter === "s") result.dotAll = value;
      else if (letter === "m") result.multiline = value;
      else if (letter === "U") result.ungreedy = value;
      else fail();
    }
  }
  return result;
}

function literal(code: number, flags: Flags): Node {
  return { kind: "set", ranges: fold([[code, code]], flags), negated: false };
}

/** `ranges` plus the other case of every ASCII letter in them, when caseless. */
function fold(ranges: readonly CodeRange[], flags: Flags): CodeRange[] {
  if (!flags.caseless) return [...ranges];
  const result = [...ranges];
  for (const [low, high] of ranges) {
    for (const [from, to, shift] of [
      [0x41, 0x5a, 0x20],
      [0x61, 0x7a, -0x20],
    ] as const) {
      const start = Math.max(low, from);
      const end = Math.min(high, to);
      if (start <= end) result.push([start + shift, end + shift]);
    }
  }
  return result;
}
