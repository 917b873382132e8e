// Patterns matched without backtracking. A pattern becomes a Thompson automaton (nfa.ts),
// run as a DFA built while it reads (lazy-dfa.ts), or, with `!(...)`, as a set of states
// (nfa-run.ts). Either way a match costs O(text x pattern) at worst, whatever the pattern:
// a backtracking regular expression built from a glob such as `*a*a*a*b` can take seconds
// or hours on one 200-character name, on the main thread, where no timeout can stop it.
import { DEAD, FALLBACK, LazyDfa } from "./lazy-dfa.js";
import { buildNfa, type Nfa } from "./nfa.js";
import { NfaRun } from "./nfa-run.js";
import { SLASH, type PatternNode } from "./pattern-node.js";

/** How the characters of a text are read. */
export interface AutomatonOptions {
  /**
   * The text is a `/`-separated path: `?`, `*`, classes and `!(...)` never match `/`.
   * Otherwise every character is alike (bash patterns in `${x#...}`).
   */
  readonly paths: boolean;
  /** With `paths`: wildcards also match the `.` that starts a name. */
  readonly dot: boolean;
  /** Steps a match may take before it gives up ({@link PatternBudgetError}). */
  readonly budget?: number;
  /** `states` runs the automaton as a set of states even where the DFA could (for tests). */
  readonly engine?: "dfa" | "states";
}

/** Steps a match may take by default: far above any real glob against any real path. */
export const DEFAULT_MATCH_BUDGET = 10_000_000;

/** Steps left to matches that share one budget (a search that tries every start). */
export interface MatchBudget {
  left: number;
}

/** A compiled pattern. */
export interface Automaton {
  /** Whether the whole text matches. */
  matches(text: string): boolean;
  /**
   * Calls `visit` with every end (ascending) such that `codes[start..end)` matches, until
   * `visit` returns false or no match can end further on. Not for path patterns.
   */
  scan(
    codes: readonly number[],
    start: number,
    visit: (end: number) => unknown,
    budget?: MatchBudget,
  ): void;
}

/** The code points of a string. */
export function codePoints(text: string): number[] {
  const codes: number[] = [];
  for (const character of text) codes.push(character.codePointAt(0) as number);
  return codes;
}

/** Builds the automaton of a parsed pattern. */
export function compileAutomaton(
  nodes: readonly PatternNode[],
  options: AutomatonOptions,
): Automaton {
  const nfa = buildNfa(nodes, options);
  const budget = options.budget ?? DEFAULT_MATCH_BUDGET;
  const dfa = nfa.hasNot || options.engine === "states" ? undefined : new LazyDfa(nfa);
  return {
    matches(text) {
      const spend: MatchBudget = { left: budget };
      const answer = dfa?.matches(text, spend);
      if (answer !== undefined) return answer;
      return runMatches(nfa, codePoints(text), spend);
    },
    scan(codes, from, visit, shared) {
      const spend = shared ?? { left: budget };
      if (dfa !== undefined) {
        let state = dfa.start(from === 0 || codes[from - 1] === SLASH, spend);
        for (let position = from; ; position++) {
          if (dfa.isAccepting(state) && visit(position) === false) return;
          if (position >= codes.length || state === DEAD) return;
          state = dfa.next(state, codes[position] as number, spend);
          if (state === FALLBACK) {
            // The DFA started over; finish with the automaton from where the match began,
            // skipping the ends already visited.
            return runScan(nfa, codes, from, (end) => end <= position || visit(end), spend);
          }
        }
      }
      runScan(nfa, codes, from, visit, spend);
    },
  };
}

function runMatches(nfa: Nfa, codes: readonly number[], budget: MatchBudget): boolean {
  const match = new NfaRun(nfa.states, codes, nfa.paths, budget);
  let config = match.begin(nfa.start, 0);
  for (let position = 0; position < codes.length; position++) {
    if (config.ids.length === 0 && config.threads.length === 0) return false;
    config = match.step(config, position);
  }
  return config.accepting;
}

function runScan(
  nfa: Nfa,
  codes: readonly number[],
  from: number,
  visit: (end: number) => unknown,
  budget: MatchBudget,
): void {
  const match = new NfaRun(nfa.states, codes, nfa.paths, budget);
  let config = match.begin(nfa.start, from);
  for (let position = from; ; position++) {
    if (config.accepting && visit(position) === false) return;
    if (position >= codes.length) return;
    if (config.ids.length === 0 && config.threads.length === 0) return;
    config = match.step(config, position);
  }
}
