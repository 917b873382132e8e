// Runs an automaton without `!(...)` as a DFA built while it reads: each DFA state is a
// set of automaton states, made the first time a match reaches it and kept for the next
// matches, so a character costs one table lookup once the pattern is warm. Characters
// that every state reads alike share one column (a `*.ts` glob has five). The table is
// capped: past its cap it starts over, and a match costs what building states costs,
// still linear in the text.
import type { MatchBudget } from "./automaton.js";
import { ACCEPT, CLASS, NO_DOT, SPLIT, reads, type Nfa, type NfaState } from "./nfa.js";
import { DOT, PatternBudgetError, SLASH } from "./pattern-node.js";

/** DFA states kept before the table starts over. */
const MAX_STATES = 2048;
/** Character columns at most; a pattern with more falls back (see `next`). */
const MAX_CLASSES = 512;
/** Non-ASCII characters whose column is remembered. */
const MAX_REMEMBERED_CHARACTERS = 4096;
const UNKNOWN = -1;
/** The state with no automaton state left: no match can follow. */
export const DEAD = 0;
/** `next` could not give a state: the caller runs the automaton directly. */
export const FALLBACK = -2;

export class LazyDfa {
  private readonly consuming: number[] = [];
  private readonly ascii = new Int32Array(128);
  private readonly others = new Map<number, number>();
  private readonly classes = new Map<string, number>();
  private readonly marks: Int32Array;
  private mark = 0;
  /** Automaton states (readers and NO_DOT checks) of each DFA state, sorted. */
  private sets: number[][] = [];
  private accepting: boolean[] = [];
  /** Whether the position after reaching the state starts a name (after `/`, or first). */
  private nameStart: boolean[] = [];
  private rows: Int32Array[] = [];
  private ids = new Map<string, number>();
  private starts: [number, number] = [UNKNOWN, UNKNOWN];
  /** NO_DOT states whose way on reaches ACCEPT. */
  private readonly dotAccepts: boolean[];

  constructor(private readonly nfa: Nfa) {
    const states = nfa.states;
    this.marks = new Int32Array(states.length).fill(-1);
    states.forEach((state, id) => {
      if (state.op <= CLASS) this.consuming.push(id); // CHAR, ANY, CLASS
    });
    this.dotAccepts = states.map((state) => state.op === NO_DOT && this.reachesAccept(state.out));
    for (let code = 0; code < 128; code++) this.ascii[code] = this.classOf(code);
    this.reset();
  }

  /** The DFA state at a start, `nameStart` when the text before it is empty or ends in `/`. */
  start(nameStart: boolean, budget: MatchBudget): number {
    const index = nameStart ? 1 : 0;
    let id = this.starts[index];
    if (id === UNKNOWN) {
      id = this.intern(this.closure([this.nfa.start], budget), nameStart);
      this.starts[index] = id;
    }
    return id;
  }

  isAccepting(state: number): boolean {
    return this.accepting[state] as boolean;
  }

  /**
   * Whether the whole text matches (from a name start), or undefined when the table
   * started over or a character has no column: the caller then runs the automaton.
   */
  matches(text: string, budget: MatchBudget): boolean | undefined {
    let state = this.start(true, budget);
    const ascii = this.ascii;
    const length = text.length;
    for (let i = 0; i < length; i++) {
      let code = text.charCodeAt(i);
      let column: number;
      if (code < 128) column = ascii[code] as number;
      else {
        if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) {
          const low = text.charCodeAt(i + 1);
          if (low >= 0xdc00 && low <= 0xdfff) {
            code = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
            i++;
          }
        }
        column = this.otherClass(code);
        if (column < 0) return undefined;
      }
      const row = this.rows[state] as Int32Array;
      let next = column < row.length ? (row[column] as number) : UNKNOWN;
      if (next === UNKNOWN) next = this.build(state, code, column, budget);
      if (next === DEAD) return false;
      if (next === FALLBACK) return undefined;
      state = next;
    }
    return this.accepting[state] as boolean;
  }

  /** The state after reading `code`, {@link DEAD}, or {@link FALLBACK}. */
  next(state: number, code: number, budget: MatchBudget): number {
    const column = code < 128 ? (this.ascii[code] as number) : this.otherClass(code);
    if (column < 0) return FALLBACK;
    const row = this.rows[state] as Int32Array;
    if (column < row.length) {
      const known = row[column] as number;
      if (known !== UNKNOWN) return known;
    }
    return this.build(state, code, column, budget);
  }

  /** Makes the transition of `state` on `code` (in `column`). */
  private build(state: number, code: number, column: number, budget: MatchBudget): number {
    const members = this.sets[state] as number[];
    const nameStart = this.nameStart[state] as boolean;
    const seeds: number[] = [];
    const read = (id: number) => {
      const nfaState = this.nfa.states[id] as NfaState;
      if (nfaState.op === NO_DOT) {
        if (nameStart && code === DOT) return;
        for (const after of this.closure([nfaState.out], budget)) read(after);
      } else if (reads(nfaState, code, this.nfa.paths)) {
        seeds.push(nfaState.out);
      }
    };
    for (const id of members) read(id);
    if (this.sets.length >= MAX_STATES) {
      // Start over; the states a match is in now stay reachable through `next`.
      this.reset();
      return FALLBACK;
    }
    const target = this.intern(this.closure(seeds, budget), this.nfa.paths && code === SLASH);
    let current = this.rows[state] as Int32Array;
    if (column >= current.length) {
      const grown = new Int32Array(Math.max(column + 1, current.length * 2)).fill(UNKNOWN);
      grown.set(current);
      this.rows[state] = current = grown;
    }
    current[column] = target;
    return target;
  }

  private reset(): void {
    this.sets = [[]];
    this.accepting = [false];
    this.nameStart = [false];
    this.rows = [new Int32Array(0)];
    this.ids = new Map([["0:", DEAD]]);
    this.starts = [UNKNOWN, UNKNOWN];
  }

  /** The readers and NO_DOT checks reachable from `seeds` by free moves, sorted, and ACCEPT. */
  private closure(seeds: readonly number[], budget: MatchBudget): number[] & { accept?: true } {
    const mark = this.mark++;
    const found: number[] & { accept?: true } = [];
    const stack = [...seeds];
    while (stack.length > 0) {
      const id = stack.pop() as number;
      if (this.marks[id] === mark) continue;
      this.marks[id] = mark;
      if (--budget.left < 0) {
        throw new PatternBudgetError(
          "The pattern is too complex to match against this text within the step budget.",
        );
      }
      const state = this.nfa.states[id] as NfaState;
      if (state.op === SPLIT) stack.push(state.out1, state.out);
      else if (state.op === ACCEPT) found.accept = true;
      else {
        found.push(id);
        if (state.op === NO_DOT && this.dotAccepts[id]) found.accept = true;
      }
    }
    return found.sort((a, b) => a - b);
  }

  private intern(members: number[] & { accept?: true }, nameStart: boolean): number {
    const accept = members.accept === true;
    if (members.length === 0 && !accept) return DEAD;
    const key = `${nameStart ? 1 : 0}${accept ? "a" : ""}:${members.join(",")}`;
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const id = this.sets.length;
    this.sets.push([...members]);
    this.accepting.push(accept);
    this.nameStart.push(nameStart);
    this.rows.push(new Int32Array(0));
    this.ids.set(key, id);
    return id;
  }

  /** Whether ACCEPT is reachable from `id` by free moves and NO_DOT checks (text ended). */
  private reachesAccept(id: number): boolean {
    const seen = new Set<number>();
    const stack = [id];
    while (stack.length > 0) {
      const current = stack.pop() as number;
      if (seen.has(current)) continue;
      seen.add(current);
      const state = this.nfa.states[current] as NfaState;
      if (state.op === ACCEPT) return true;
      if (state.op === SPLIT) stack.push(state.out1, state.out);
      else if (state.op === NO_DOT) stack.push(state.out);
    }
    return false;
  }

  /** The column of a character: characters every reader treats alike share one. */
  private classOf(code: number): number {
    const paths = this.nfa.paths;
    let signature = paths && code === SLASH ? "/" : paths && code === DOT ? "." : "";
    for (const id of this.consuming)
      signature += reads(this.nfa.states[id] as NfaState, code, paths) ? "1" : "0";
    let column = this.classes.get(signature);
    if (column === undefined) {
      if (this.classes.size >= MAX_CLASSES) return -1;
      column = this.classes.size;
      this.classes.set(signature, column);
    }
    return column;
  }

  private otherClass(code: number): number {
    const known = this.others.get(code);
    if (known !== undefined) return known;
    const column = this.classOf(code);
    if (this.others.size < MAX_REMEMBERED_CHARACTERS) this.others.set(code, column);
    return column;
  }
}
