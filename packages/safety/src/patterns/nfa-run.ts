// Runs an automaton as a set of states over the text, for patterns with `!(...)`: every
// character is read once per state, and each `!(...)` under way keeps the states of its
// own alternatives (one run per start, merged when they are alike). Linear in the text for
// a given pattern; the budget bounds the rest.
import type { MatchBudget } from "./automaton.js";
import { ACCEPT, NO_DOT, NOT, SPLIT, reads, type NfaState } from "./nfa.js";
import { DOT, PatternBudgetError, SLASH } from "./pattern-node.js";

/** The states a match is in at one position. */
export interface Config {
  readonly mark: number;
  /** Consuming states (CHAR, ANY, CLASS). */
  readonly ids: number[];
  /** Runs of `!(...)` under way, each with the states of its alternatives. */
  readonly threads: Thread[];
  readonly keys: Set<string>;
  accepting: boolean;
}

interface Thread {
  readonly not: number;
  readonly inner: Config;
}

/** One match over one text. The states of a NOT's alternatives are never the outer ones. */
export class NfaRun {
  private readonly marks: Int32Array;
  private nextMark = 0;

  constructor(
    private readonly states: readonly NfaState[],
    private readonly codes: readonly number[],
    private readonly paths: boolean,
    private readonly budget: MatchBudget,
  ) {
    this.marks = new Int32Array(states.length).fill(-1);
  }

  begin(start: number, position: number): Config {
    const config = this.config();
    this.add(config, start, position);
    return config;
  }

  /** The config after reading `codes[position]`. */
  step(config: Config, position: number): Config {
    const code = this.codes[position] as number;
    const next = this.config();
    const separator = this.paths && code === SLASH;
    for (const id of config.ids) {
      const state = this.states[id] as NfaState;
      if (reads(state, code, this.paths)) this.add(next, state.out, position + 1);
    }
    if (!separator) {
      for (const thread of config.threads) {
        const inner = this.step(thread.inner, position);
        this.thread(next, thread.not, inner, position + 1);
      }
    }
    return next;
  }

  private config(): Config {
    return { mark: this.nextMark++, ids: [], threads: [], keys: new Set(), accepting: false };
  }

  private spend(): void {
    if (--this.budget.left < 0) {
      throw new PatternBudgetError(
        "The pattern is too complex to match against this text within the step budget.",
      );
    }
  }

  /** A `!(...)` run that has read up to `position`: it ends there when its inner did not match. */
  private thread(config: Config, not: number, inner: Config, position: number): void {
    const key = `${not}:${configKey(inner)}`;
    if (!config.keys.has(key)) {
      config.keys.add(key);
      config.threads.push({ not, inner });
    }
    if (!inner.accepting) this.add(config, (this.states[not] as NfaState).out, position);
  }

  private add(config: Config, first: number, position: number): void {
    const stack = [first];
    while (stack.length > 0) {
      const id = stack.pop() as number;
      if (this.marks[id] === config.mark) continue;
      this.marks[id] = config.mark;
      this.spend();
      const state = this.states[id] as NfaState;
      switch (state.op) {
        case SPLIT:
          stack.push(state.out1, state.out);
          break;
        case NO_DOT: {
          const nameStart = position === 0 || this.codes[position - 1] === SLASH;
          if (!nameStart || this.codes[position] !== DOT) stack.push(state.out);
          break;
        }
        case NOT: {
          const inner = this.config();
          this.add(inner, state.inner, position);
          this.thread(config, id, inner, position);
          break;
        }
        case ACCEPT:
          config.accepting = true;
          break;
        default:
          config.ids.push(id);
      }
    }
  }
}

function configKey(config: Config): string {
  const ids = [...config.ids].sort((a, b) => a - b).join(",");
  if (config.threads.length === 0) return `${ids};${config.accepting ? 1 : 0}`;
  const threads = config.threads.map((t) => `${t.not}:${configKey(t.inner)}`).sort();
  return `${ids};${config.accepting ? 1 : 0};[${threads.join("|")}]`;
}
