// Globs over `/`-separated relative paths, for the tools that walk a workspace (find_path,
// grep's include/exclude, .gitignore rules). Matching never backtracks: see automaton.ts.
import { codePoints, compileAutomaton } from "./automaton.js";
import { parseGlob } from "./glob-syntax.js";
import { DOT, SLASH, type PatternNode } from "./pattern-node.js";

/** Options of {@link compilePathGlob}. */
export interface PathGlobOptions {
  /** Wildcards also match names that start with `.`; otherwise the pattern must spell the dot. */
  readonly dot: boolean;
  /**
   * `glob` (the default): braces, ranges, extglobs and a leading `!` that negates the whole
   * pattern. `gitignore`: git's wildmatch, where `{`, `(` and `!` are ordinary characters.
   */
  readonly syntax?: "glob" | "gitignore";
  /** States a match may visit; see `DEFAULT_MATCH_BUDGET`. */
  readonly budget?: number;
}

/** A compiled path glob. */
export interface PathGlob {
  /** Whether a relative path (`src/index.ts`, no leading or trailing `/`) matches. */
  matches(path: string): boolean;
  /** The most names a matching path has, or undefined when `**`, a repeat or `!` lifts the bound. */
  readonly maxNames: number | undefined;
  /** Whether the pattern spells a `.` that starts a name (`.github/*`): a walk must list dot entries. */
  readonly spellsDot: boolean;
  /** The leading directories without a wildcard (`src/lib` of `src/lib/**`), or "". */
  readonly base: string;
}

const BANG = 0x21;
const OPEN_PAREN = 0x28;

/**
 * Compiles a path glob. Throws `PatternSyntaxError` for a pattern that cannot be parsed;
 * `matches` throws `PatternBudgetError` past the step budget.
 */
export function compilePathGlob(pattern: string, options: PathGlobOptions): PathGlob {
  const syntax = options.syntax ?? "glob";
  const glob = syntax === "glob";
  let codes = codePoints(pattern);
  let negated = false;
  while (glob && codes[0] === BANG && codes[1] !== OPEN_PAREN) {
    negated = !negated;
    codes = codes.slice(1);
  }
  const nodes = parseGlob(codes, { braces: glob, extglob: glob });
  const automaton = compileAutomaton(nodes, {
    paths: true,
    dot: options.dot,
    ...(options.budget === undefined ? {} : { budget: options.budget }),
  });
  const slashes = maxSlashes(nodes);
  return {
    matches: negated ? (path) => !automaton.matches(path) : (path) => automaton.matches(path),
    maxNames: negated || slashes === Infinity ? undefined : slashes + 1,
    spellsDot: spellsDot(nodes, true).found,
    base: negated ? "" : literalBase(nodes),
  };
}

/** The most `/` a match can hold. */
function maxSlashes(nodes: readonly PatternNode[]): number {
  let total = 0;
  for (const node of nodes) {
    if (node.kind === "char" && node.code === SLASH) total++;
    else if (node.kind === "globstar") return Infinity;
    else if (node.kind === "group") {
      const most = Math.max(0, ...node.alternatives.map(maxSlashes));
      if (most > 0 && (node.op === "*" || node.op === "+")) return Infinity;
      if (node.op !== "!") total += most;
    }
  }
  return total;
}

/** Whether a literal `.` can be the first character of a name; and where the sequence ends. */
function spellsDot(
  nodes: readonly PatternNode[],
  nameStart: boolean,
): { found: boolean; nameStart: boolean } {
  let atStart = nameStart;
  for (const node of nodes) {
    if (node.kind === "char") {
      if (node.code === DOT && atStart) return { found: true, nameStart: false };
      atStart = node.code === SLASH;
    } else if (node.kind === "globstar") {
      atStart = true;
    } else if (node.kind === "group") {
      let after = false;
      for (const alternative of node.alternatives) {
        const inner = spellsDot(alternative, atStart);
        if (inner.found) return inner;
        after ||= inner.nameStart;
      }
      // Over-approximated: a name may start after the group if one started before it.
      atStart = after || atStart;
    } else {
      atStart = false;
    }
  }
  return { found: false, nameStart: atStart };
}

/** The directories before the first wildcard; for a literal path, its parent. */
function literalBase(nodes: readonly PatternNode[]): string {
  const literal: number[] = [];
  let wildcard = false;
  for (const node of nodes) {
    if (node.kind !== "char") {
      wildcard = true;
      break;
    }
    literal.push(node.code);
  }
  if (!wildcard) literal.push(0); // a literal path: drop its last name below
  const text = String.fromCodePoint(...literal);
  const cut = text.lastIndexOf("/");
  return cut <= 0 ? "" : text.slice(0, cut).replace(/\/+$/, "");
}
