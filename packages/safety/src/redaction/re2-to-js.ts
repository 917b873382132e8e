/**
 * Translates a Go RE2 pattern (the syntax of the gitleaks ruleset) into a JavaScript
 * pattern with the same meaning, for the generator of `gitleaks-rules.generated.ts`.
 *
 * RE2 and JavaScript differ where it matters here: RE2 scopes flags inside a pattern
 * (`(?i)` from that point to the end of the group, `(?-i:...)`, `(?s:...)`), knows POSIX
 * classes (`[[:alnum:]]`), `\z` and `\A`, and defines `\s` and `.` on ASCII newlines only.
 * The output needs no lookaround and at most the `i` flag (when the whole pattern is
 * case-insensitive), so it runs on every supported Node: scoped case folding is spelled
 * out as `[aA]`, `.` as `[^\n]` (or `[\s\S]` under `s`), `\s` as `[\t\n\f\r ]`. Named groups become plain capture groups, so group numbers stay RE2's.
 *
 * Unbounded repetitions are capped at `maxRepeat` (a secret is never that long, and the
 * cap bounds the work a backtracking engine can spend at one start position).
 */
export interface Re2Translation {
  /** The JavaScript pattern source. */
  readonly source: string;
  /** `"i"` when the whole pattern is case-insensitive, else `""`. */
  readonly flags: "" | "i";
  /** How many capture groups it has. */
  readonly groups: number;
  /** The longest text it can match, after capping. */
  readonly maxLength: number;
  /**
   * With `dropLazyPrefix`: the optional lazy prefix that was dropped (`[\w.-]{0,50}?` in
   * gitleaks' generic rules), as a character class and the most characters it took.
   */
  readonly droppedPrefix?: { readonly characters: string; readonly max: number };
}

/** Options of {@link translateRe2}. */
export interface Re2TranslationOptions {
  /** Unbounded repetitions (`*`, `+`, `{n,}`) become `{n,maxRepeat}`. */
  readonly maxRepeat: number;
  /**
   * Drop leading lazy repetitions that may match nothing (`[\w.-]{0,50}?`). They only
   * widen where a match starts, never whether there is one, and a backtracking engine
   * pays for them at every position of the text: fifty tries per character, 2,500 when
   * two are nested.
   */
  readonly dropLazyPrefix?: boolean;
}

type CodeRange = readonly [number, number];

type Node =
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

const DIGIT: CodeRange[] = [[0x30, 0x39]];
const WORD: CodeRange[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: CodeRange[] = [
  [0x09, 0x0a],
  [0x0c, 0x0d],
  [0x20, 0x20],
];
const POSIX: Record<string, CodeRange[]> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: DIGIT,
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: WORD,
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};
const SIMPLE_ESCAPES: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
const MAX_CODE_POINT = 0x10ffff;

/** Translates `pattern`; throws on syntax this translator does not know. */
export function translateRe2(pattern: string, options: Re2TranslationOptions): Re2Translation {
  // A pattern that is case-insensitive throughout keeps its letters and takes the `i` flag
  // (ASCII folding only, without the `u` flag, as RE2 folds these patterns' classes).
  const wholeCaseless = pattern.startsWith("(?i)") && !/\(\?[a-zA-Z]*-[a-zA-Z]*i/.test(pattern);
  const parser = new Parser(wholeCaseless ? pattern.slice(4) : pattern);
  const parsed = parser.parseAlternation({
    caseless: false,
    dotAll: false,
    multiline: false,
    ungreedy: false,
  });
  if (!parser.done()) parser.fail("unbalanced ')'");
  const dropped = options.dropLazyPrefix ? dropLazyPrefix(parsed) : undefined;
  const node = dropped?.node ?? parsed;
  return {
    source: emit(node, options.maxRepeat),
    flags: wholeCaseless ? "i" : "",
    groups: parser.groups,
    maxLength: maxLength(node, options.maxRepeat),
    ...(dropped && {
      droppedPrefix: {
        characters: emitSet({ kind: "set", ranges: dropped.ranges, negated: false }),
        max: dropped.max,
      },
    }),
  };
}

interface DroppedPrefix {
  readonly node: Node;
  readonly ranges: CodeRange[];
  readonly max: number;
}

/** `node` without its leading lazy, possibly empty repetitions of a class. */
function dropLazyPrefix(node: Node): DroppedPrefix | undefined {
  if (node.kind === "alternation") {
    const dropped = node.branches.map((branch) => dropLazyPrefix(branch));
    if (dropped.every((branch) => branch === undefined)) return undefined;
    return {
      node: {
        kind: "alternation",
        branches: node.branches.map((branch, index) => dropped[index]?.node ?? branch),
      },
      ranges: normalize(dropped.flatMap((branch) => branch?.ranges ?? [])),
      max: Math.max(...dropped.map((branch) => branch?.max ?? 0)),
    };
  }
  if (node.kind === "group" && !node.capture) {
    const inner = dropLazyPrefix(node.body);
    return inner && { ...inner, node: { kind: "group", capture: false, body: inner.node } };
  }
  if (node.kind !== "concat") return undefined;
  const ranges: CodeRange[] = [];
  let max = 0;
  let index = 0;
  for (const item of node.items) {
    if (item.kind !== "repeat" || !item.lazy || item.min !== 0 || item.body.kind !== "set") break;
    if (item.body.negated || item.max === Infinity) break;
    ranges.push(...item.body.ranges);
    max += item.max;
    index += 1;
  }
  const rest = node.items.slice(index);
  if (index === 0) {
    const [first, ...others] = node.items;
    const inner = first && dropLazyPrefix(first);
    return inner && { ...inner, node: { kind: "concat", items: [inner.node, ...others] } };
  }
  if (rest.length === 0) return undefined;
  const next = dropLazyPrefix({ kind: "concat", items: rest });
  return {
    node: next?.node ?? sequence(rest),
    ranges: normalize([...ranges, ...(next?.ranges ?? [])]),
    max: max + (next?.max ?? 0),
  };
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
function sequence(items: readonly Node[]): Node {
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

function normalize(ranges: readonly CodeRange[]): CodeRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [low, high] of sorted) {
    const last = merged.at(-1);
    if (last && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else merged.push([low, high]);
  }
  return merged;
}

function complement(ranges: readonly CodeRange[]): CodeRange[] {
  const result: CodeRange[] = [];
  let next = 0;
  for (const [low, high] of normalize(ranges)) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

const CONTROL_ESCAPES: Record<number, string> = {
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
};

function emitCode(code: number, inClass: boolean): string {
  if (code > 0xffff) {
    if (inClass) throw new SyntaxError("astral code points in a class are not supported");
    return String.fromCodePoint(code);
  }
  const control = CONTROL_ESCAPES[code];
  if (control) return control;
  const char = String.fromCharCode(code);
  const special = inClass ? /[\\\][^-]/ : /[\\^$.*+?()[\]{}|/]/;
  if (special.test(char)) return `\\${char}`;
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0xa0) || code >= 0x2028)
    return `\\u${code.toString(16).padStart(4, "0")}`;
  return char;
}

function contains(ranges: readonly CodeRange[], subset: readonly CodeRange[]): boolean {
  return subset.every(([low, high]) => ranges.some(([from, to]) => from <= low && high <= to));
}

/** `ranges` without `removed`, both normalized. */
function subtract(ranges: readonly CodeRange[], removed: readonly CodeRange[]): CodeRange[] {
  const kept = complement(removed);
  const result: CodeRange[] = [];
  for (const [low, high] of ranges) {
    for (const [from, to] of kept) {
      const start = Math.max(low, from);
      const end = Math.min(high, to);
      if (start <= end) result.push([start, end]);
    }
  }
  return result;
}

function emitSet(node: Extract<Node, { kind: "set" }>): string {
  let ranges = normalize(node.ranges);
  const [first] = ranges;
  if (ranges.length === 1 && first && !node.negated) {
    const [low, high] = first;
    if (low === 0 && high === MAX_CODE_POINT) return "[\\s\\S]";
    if (low === high) return emitCode(low, false);
  }
  // `\w` and `\d` are ASCII in both syntaxes; writing them keeps the output readable.
  let shorthand = "";
  for (const [name, set] of [
    ["\\w", WORD],
    ["\\d", DIGIT],
  ] as const) {
    if (shorthand === "" && contains(ranges, set)) {
      shorthand = name;
      ranges = subtract(ranges, set);
    }
  }
  if (shorthand !== "" && ranges.length === 0 && !node.negated) return shorthand;
  // Without the `u` flag JavaScript matches UTF-16 units: above U+FFFF, a range of whole
  // code units covers every surrogate half, which is what a "match anything" needs.
  const parts = ranges.map(([low, high]) => {
    const top = Math.min(high, 0xffff);
    if (low > 0xffff) return "\\ud800-\\udfff";
    const range =
      low === top
        ? emitCode(low, true)
        : top === low + 1
          ? `${emitCode(low, true)}${emitCode(top, true)}`
          : `${emitCode(low, true)}-${emitCode(top, true)}`;
    return high > 0xffff ? `${range}\\ud800-\\udfff` : range;
  });
  return `[${node.negated ? "^" : ""}${shorthand}${parts.join("")}]`;
}

function emit(node: Node, maxRepeat: number): string {
  switch (node.kind) {
    case "empty":
      return "";
    case "set":
      return emitSet(node);
    case "assert":
      return node.source;
    case "group":
      return `(${node.capture ? "" : "?:"}${emit(node.body, maxRepeat)})`;
    case "concat":
      return node.items.map((item) => emit(item, maxRepeat)).join("");
    case "alternation":
      return node.branches.map((branch) => emit(branch, maxRepeat)).join("|");
    case "repeat": {
      const body = emit(node.body, maxRepeat);
      const atomic =
        node.body.kind === "group" ||
        node.body.kind === "set" ||
        (node.body.kind === "assert" && !node.body.source.startsWith("(?"));
      const wrapped = atomic ? body : `(?:${body})`;
      const max = Math.max(node.min, Math.min(node.max, maxRepeat));
      const count =
        max === Infinity
          ? node.min === 0
            ? "*"
            : node.min === 1
              ? "+"
              : `{${node.min},}`
          : node.min === 0 && max === 1
            ? "?"
            : max === node.min
              ? `{${node.min}}`
              : `{${node.min},${max}}`;
      return `${wrapped}${count}${node.lazy ? "?" : ""}`;
    }
  }
}

function maxLength(node: Node, maxRepeat: number): number {
  switch (node.kind) {
    case "empty":
    case "assert":
      return 0;
    case "set":
      return node.ranges.some(([, high]) => high > 0xffff) || node.negated ? 2 : 1;
    case "group":
      return maxLength(node.body, maxRepeat);
    case "concat":
      return node.items.reduce((sum, item) => sum + maxLength(item, maxRepeat), 0);
    case "alternation":
      return Math.max(...node.branches.map((branch) => maxLength(branch, maxRepeat)));
    case "repeat":
      return maxLength(node.body, maxRepeat) * Math.max(node.min, Math.min(node.max, maxRepeat));
  }
}
