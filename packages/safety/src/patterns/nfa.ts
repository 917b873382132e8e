// A parsed pattern as a Thompson automaton: states joined by free moves (SPLIT), states
// that read one character (CHAR, ANY, CLASS), and two checks (NO_DOT, NOT). Running it
// is done by lazy-dfa.ts, or by nfa-run.ts when the pattern has a `!(...)`.
import { SLASH, type PatternNode } from "./pattern-node.js";

export const CHAR = 0;
export const ANY = 1;
export const CLASS = 2;
export const SPLIT = 3;
/** A free move, unless the position starts a name and the next character is `.`. */
export const NO_DOT = 4;
/** `!(...)`: a run within one name that none of the inner alternatives matches. */
export const NOT = 5;
export const ACCEPT = 6;

/** One state. Unused fields are -1. */
export interface NfaState {
  readonly op: number;
  readonly code: number;
  readonly test: ((code: number) => boolean) | undefined;
  out: number;
  readonly out1: number;
  /** NOT: the first state of the alternatives it refuses (their own states, own ACCEPT). */
  readonly inner: number;
}

/** A built automaton. */
export interface Nfa {
  readonly states: readonly NfaState[];
  readonly start: number;
  /** The pattern has a `!(...)`, which only nfa-run.ts can run. */
  readonly hasNot: boolean;
  /** `/` separates names: `?`, `*`, classes and `!(...)` never read it. */
  readonly paths: boolean;
}

/** Whether `state` (CHAR, ANY or CLASS) reads `code`. */
export function reads(state: NfaState, code: number, paths: boolean): boolean {
  if (state.op === CHAR) return state.code === code;
  if (paths && code === SLASH) return false;
  return state.op === ANY || (state.test as (c: number) => boolean)(code);
}

/** Builds the automaton of parsed pattern nodes. */
export function buildNfa(
  nodes: readonly PatternNode[],
  options: { readonly paths: boolean; readonly dot: boolean },
): Nfa {
  const states: NfaState[] = [];
  let hasNot = false;
  const state = (op: number, fields: Partial<NfaState> = {}): number => {
    states.push({
      op,
      code: fields.code ?? -1,
      test: fields.test,
      out: fields.out ?? -1,
      out1: fields.out1 ?? -1,
      inner: fields.inner ?? -1,
    });
    return states.length - 1;
  };
  const at = (id: number) => states[id] as NfaState;
  // In a path, a wildcard does not match the `.` that starts a name unless `dot` is on.
  const guard = (id: number) => (options.paths && !options.dot ? state(NO_DOT, { out: id }) : id);
  const alternatives = (list: readonly (readonly PatternNode[])[], next: number): number => {
    let start = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      const first = sequence(list[i] as readonly PatternNode[], next);
      start = start === -1 ? first : state(SPLIT, { out: first, out1: start });
    }
    return start === -1 ? next : start;
  };
  const node = (item: PatternNode, next: number): number => {
    switch (item.kind) {
      case "char":
        return state(CHAR, { code: item.code, out: next });
      case "any":
        return guard(state(ANY, { out: next }));
      case "class":
        return guard(state(CLASS, { test: item.test, out: next }));
      case "star": {
        const loop = state(SPLIT, { out1: next });
        at(loop).out = state(ANY, { out: loop });
        return guard(loop);
      }
      case "globstar": {
        // ( name "/" )* where a name is one character or more.
        const loop = state(SPLIT, { out1: next });
        const more = state(SPLIT, { out1: state(CHAR, { code: SLASH, out: loop }) });
        at(more).out = state(ANY, { out: more });
        at(loop).out = guard(state(ANY, { out: more }));
        return loop;
      }
      case "group": {
        if (item.op === "@") return alternatives(item.alternatives, next);
        if (item.op === "?")
          return state(SPLIT, { out: alternatives(item.alternatives, next), out1: next });
        if (item.op === "!") {
          hasNot = true;
          const inner = alternatives(item.alternatives, state(ACCEPT));
          return guard(state(NOT, { inner, out: next }));
        }
        const loop = state(SPLIT, { out1: next });
        const body = alternatives(item.alternatives, loop);
        at(loop).out = body;
        return item.op === "*" ? loop : body;
      }
    }
  };
  const sequence = (list: readonly PatternNode[], next: number): number => {
    let start = next;
    for (let i = list.length - 1; i >= 0; i--) start = node(list[i] as PatternNode, start);
    return start;
  };
  const start = sequence(nodes, state(ACCEPT));
  return { states, start, hasNot, paths: options.paths };
}
