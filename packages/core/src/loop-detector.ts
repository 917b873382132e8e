/**
 * Loop detection: a model that is stuck makes the same tool calls over and over, getting
 * the same answers. A call is identified by its tool name and its arguments in canonical
 * form, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same call.
 */

/**
 * `value` as JSON with the keys of every object sorted, so that two values that differ only
 * in key order give the same text. Arrays keep their order.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What identifies a call for loop detection: the tool and its arguments in canonical form. */
export function toolCallSignature(call: {
  readonly name: string;
  readonly input: unknown;
}): string {
  return `${call.name}\u0000${canonicalJson(call.input)}`;
}

/** A call that would repeat what the run already did `times` times in a row. */
export interface RepeatedCall {
  /** Index of the call, among those checked, that would start the next repetition. */
  readonly index: number;
  /** The tool of that call. */
  readonly toolName: string;
  /** Length of the repeated sequence: 1 for the same call, 2 for two calls that alternate, ... */
  readonly period: number;
  /** How many times in a row the sequence already ran. */
  readonly times: number;
}

/**
 * Remembers the calls of one run and finds the call that would repeat, for the
 * `times + 1`-th time in a row, a sequence of calls: the same call (`A A A A`), two calls
 * that alternate (`A B A B A B A`), or any longer cycle. Calls in between that differ (an
 * edit between two reads of a file, a test run between two edits) break the repetition.
 */
export class RepeatedCallDetector {
  readonly #times: number;
  readonly #signatures: string[] = [];

  /** `times`: how many times in a row the same call (or cycle of calls) may run. */
  constructor(times: number) {
    this.#times = times;
  }

  /**
   * The first of `calls` that would repeat a call or cycle already made `times` times in a
   * row, counting the run's earlier calls and the calls before it in `calls`; undefined
   * when none would. Records nothing.
   */
  find(
    calls: readonly { readonly name: string; readonly input: unknown }[],
  ): RepeatedCall | undefined {
    const signatures = [...this.#signatures];
    for (const [index, call] of calls.entries()) {
      signatures.push(toolCallSignature(call));
      const period = repetitionPeriod(signatures, this.#times);
      if (period !== undefined) return { index, toolName: call.name, period, times: this.#times };
    }
    return undefined;
  }

  /** Records calls that ran. */
  record(calls: readonly { readonly name: string; readonly input: unknown }[]): void {
    for (const call of calls) this.#signatures.push(toolCallSignature(call));
  }
}

/**
 * The shortest period `p` such that the last `times * p + 1` signatures repeat with period
 * `p` (each equals the one `p` before it): the last call starts the `times + 1`-th run of a
 * cycle of `p` calls.
 */
function repetitionPeriod(signatures: readonly string[], times: number): number | undefined {
  const last = signatures.length - 1;
  for (let period = 1; times * period + 1 <= signatures.length; period += 1) {
    let repeats = true;
    for (let index = last; index >= last - times * period + period; index -= 1) {
      if (signatures[index] !== signatures[index - period]) {
        repeats = false;
        break;
      }
    }
    if (repeats) return period;
  }
  return undefined;
}
