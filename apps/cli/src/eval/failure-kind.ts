/**
 * Why a case failed, from a closed set. Harnesses compared on open-weight models differ
 * most in how they fail, so a report counts failures by kind:
 *
 * - `no-tool-call`: the model answered without calling any tool where the case needed one.
 * - `malformed-tool-call`: a call named no known tool, its arguments were not JSON or did
 *   not match the tool's schema, or the model wrote the call as text.
 * - `loop`: the agent stopped the model repeating the same call.
 * - `limit`: a turn, tool-call, context or quota limit ended the run.
 * - `timeout`: the case's time ran out.
 * - `refused`: the safety layer refused a call the task needed.
 * - `provider-error`: the model's server failed (HTTP error, unreachable, bad stream).
 * - `crash`: XZatoma itself failed (an unexpected error).
 * - `expectation`: the run finished, but its effect is not what the case expects.
 */
export const FAILURE_KINDS = [
  "no-tool-call",
  "malformed-tool-call",
  "loop",
  "limit",
  "timeout",
  "refused",
  "provider-error",
  "crash",
  "expectation",
] as const;

/** One of {@link FAILURE_KINDS}. */
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** A failure: its kind and what happened, in a sentence. */
export interface Failure {
  readonly kind: FailureKind;
  readonly detail: string;
}
