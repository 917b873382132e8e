// bash patterns as `${x#...}`, `${x%...}`, `${x/.../...}` and `${x^...}` use them: `*` and
// `?` match any character, `/` included; quoted parts are literal. Matched by automaton
// (no backtracking); every operation shares one step budget.
import {
  codePoints,
  compileAutomaton,
  DEFAULT_MATCH_BUDGET,
  type Automaton,
  type MatchBudget,
} from "./automaton.js";
import { parseBracket } from "./bracket-expression.js";
import type { PatternNode } from "./pattern-node.js";

/** One piece of a pattern as the shell sees it. */
export interface ShellPatternPart {
  readonly text: string;
  /** Quoted: its characters are literal. */
  readonly quoted: boolean;
}

/** A span `[start, end)` of code points. */
export interface PatternSpan {
  readonly start: number;
  readonly end: number;
}

/** A compiled bash pattern. Every method throws `PatternBudgetError` past the budget. */
export interface ShellPattern {
  /** Whether the whole text matches. */
  matches(text: string): boolean;
  /** How many code points the shortest or longest matching prefix holds, or -1. */
  prefix(codes: readonly number[], longest: boolean): number;
  /** How many code points the shortest or longest matching suffix holds, or -1. */
  suffix(codes: readonly number[], longest: boolean): number;
  /** The leftmost match at or after `from`, longest at its start, as bash replaces. */
  find(codes: readonly number[], from: number): PatternSpan | undefined;
}

const BACKSLASH = 0x5c;
const STAR = 0x2a;
const QUESTION = 0x3f;
const OPEN_BRACKET = 0x5b;

/** Parses a bash pattern's parts into pattern nodes. */
function parseShellPattern(parts: readonly ShellPatternPart[]): PatternNode[] {
  const nodes: PatternNode[] = [];
  for (const part of parts) {
    const codes = codePoints(part.text);
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i] as number;
      if (part.quoted) nodes.push({ kind: "char", code });
      else if (code === STAR) nodes.push({ kind: "star" });
      else if (code === QUESTION) nodes.push({ kind: "any" });
      else if (code === BACKSLASH && i + 1 < codes.length)
        nodes.push({ kind: "char", code: codes[++i] as number });
      else if (code === OPEN_BRACKET) {
        const bracket = parseBracket(codes, i);
        if (bracket === undefined) nodes.push({ kind: "char", code });
        else {
          nodes.push({ kind: "class", test: bracket.test });
          i = bracket.end;
        }
      } else nodes.push({ kind: "char", code });
    }
  }
  return nodes;
}

/**
 * Compiles a bash pattern. Throws `PatternSyntaxError` for a bracket expression bash would
 * not accept either (a reversed range).
 */
export function compileShellPattern(
  parts: readonly ShellPatternPart[],
  budget = DEFAULT_MATCH_BUDGET,
): ShellPattern {
  const nodes = parseShellPattern(parts);
  const options = { paths: false, dot: true } as const;
  const forward = compileAutomaton(nodes, options);
  // Suffixes: the reversed pattern over the reversed text (every node is one position).
  const backward = compileAutomaton([...nodes].reverse(), options);
  const shared: MatchBudget = { left: budget };
  const edge = (automaton: Automaton, codes: readonly number[], longest: boolean) => {
    let found = -1;
    automaton.scan(
      codes,
      0,
      (end) => {
        found = end;
        return longest;
      },
      shared,
    );
    return found;
  };
  return {
    matches: (text) => {
      const codes = codePoints(text);
      return edge(forward, codes, true) === codes.length;
    },
    prefix: (codes, longest) => edge(forward, codes, longest),
    suffix: (codes, longest) => edge(backward, [...codes].reverse(), longest),
    find(codes, from) {
      for (let start = from; start <= codes.length; start++) {
        let end = -1;
        forward.scan(
          codes,
          start,
          (at) => {
            end = at;
          },
          shared,
        );
        if (end !== -1) return { start, end };
      }
      return undefined;
    },
  };
}

/**
 * `${x#pattern}`: the value without its shortest (`#`) or longest (`##`) matching prefix;
 * `%` and `%%` for suffixes.
 */
export function removePattern(value: string, operator: string, pattern: ShellPattern): string {
  const codes = codePoints(value);
  const longest = operator.length === 2;
  if (operator.startsWith("#")) {
    const cut = pattern.prefix(codes, longest);
    return cut === -1 ? value : String.fromCodePoint(...codes.slice(cut));
  }
  const cut = pattern.suffix(codes, longest);
  return cut === -1 ? value : String.fromCodePoint(...codes.slice(0, codes.length - cut));
}

/**
 * `${x/pattern/replacement}` as bash does it: the leftmost match, longest at its start;
 * `//` every match, an empty one before each character; `/#` anchored at the start, `/%`
 * at the end.
 */
export function replacePattern(
  value: string,
  operator: string,
  pattern: ShellPattern,
  replacement: string,
): string {
  const codes = codePoints(value);
  const text = (from: number, to?: number) => String.fromCodePoint(...codes.slice(from, to));
  if (operator === "/#") {
    const end = pattern.prefix(codes, true);
    return end === -1 ? value : replacement + text(end);
  }
  if (operator === "/%") {
    const length = pattern.suffix(codes, true);
    return length === -1 ? value : text(0, codes.length - length) + replacement;
  }
  let result = "";
  let position = 0;
  while (position < codes.length || (position === 0 && codes.length === 0)) {
    const span = pattern.find(codes, position);
    if (span === undefined || (span.start === codes.length && codes.length > 0)) break;
    result += text(position, span.start) + replacement;
    // An empty match replaces nothing: the character after it is kept.
    position = span.end > span.start ? span.end : span.start + 1;
    if (span.end === span.start) result += text(span.start, span.start + 1);
    if (operator === "/") break;
  }
  return result + text(position);
}
