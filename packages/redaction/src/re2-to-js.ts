/**
 * Translates a Go RE2 pattern (the syntax of the gitleaks ruleset) into a JavaScript
 * pattern with the same meaning, for the generator of `gitleaks-rules.generated.ts`.
 *
 * RE2 and JavaScript differ where it matters here: RE2 scopes flags inside a pattern
 * (`(?i)` from that point to the end of the group, `(?-i:...)`, `(?s:...)`), knows POSIX
 * classes (`[[:alnum:]]`), `\z` and `\A`, and defines `\s` and `.` on ASCII newlines only.
 * The output takes at most the `i` flag (when the whole pattern is case-insensitive), so
 * it runs on every supported Node: scoped case folding is spelled out as `[aA]`, `.` as
 * `[^\n]` (or `[\s\S]` under `s`), `\s` as `[\t\n\f\r ]`. Named groups become plain
 * capture groups, so group numbers stay RE2's.
 *
 * Unbounded repetitions are capped at `maxRepeat` (a secret is never that long, and the
 * cap bounds the work a backtracking engine can spend at one start position).
 */
import {
  contains,
  MAX_CODE_POINT,
  normalize,
  subtract,
  DIGIT,
  WORD,
  type CodeRange,
} from "./code-ranges.js";
import { parseRe2, sequence, type Node } from "./re2-parser.js";

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

/** Translates `pattern`; throws on syntax this translator does not know. */
export function translateRe2(pattern: string, options: Re2TranslationOptions): Re2Translation {
  // A pattern that is case-insensitive throughout keeps its letters and takes the `i` flag
  // (ASCII folding only, without the `u` flag, as RE2 folds these patterns' classes).
  const wholeCaseless = pattern.startsWith("(?i)") && !/\(\?[a-zA-Z]*-[a-zA-Z]*i/.test(pattern);
  const { node: parsed, groups } = parseRe2(wholeCaseless ? pattern.slice(4) : pattern);
  const dropped = options.dropLazyPrefix ? dropLazyPrefix(parsed) : undefined;
  const node = dropped?.node ?? parsed;
  return {
    source: emit(node, options.maxRepeat),
    flags: wholeCaseless ? "i" : "",
    groups,
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
