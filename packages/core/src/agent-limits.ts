import { InvalidArgumentError } from "./errors.js";

/** The limits that stop a run. Every run ends with one {@link StopReason}. */
export interface AgentLimits {
  /** Model requests per run. Default 50. */
  readonly maxTurns: number;
  /** Wall-clock time per run in milliseconds. Default 300 000 (5 minutes). */
  readonly timeoutMs: number;
  /** Tool calls per run. Default 200. */
  readonly maxToolCalls: number;
  /** Tool calls the model may ask for in one response. Default 16. */
  readonly maxToolCallsPerStep: number;
  /**
   * How many times in a row the same tool call (same tool, same arguments in any key order),
   * or the same cycle of calls (`A B A B`), may run. The call that would repeat it once more
   * is not run and the run stops with `repeated-tool-calls`. Default 3.
   */
  readonly maxRepeatedToolCalls: number;
}

/** The default limits. */
export const DEFAULT_AGENT_LIMITS: AgentLimits = Object.freeze({
  maxTurns: 50,
  timeoutMs: 300_000,
  maxToolCalls: 200,
  maxToolCallsPerStep: 16,
  maxRepeatedToolCalls: 3,
});

/**
 * The most tokens one model response may hold when the caller's `callSettings` set no
 * `maxOutputTokens`: enough for a file of a few hundred lines or a reasoning model's
 * thinking, small enough that one rambling response cannot fill the context window.
 */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;

/** Merges `overrides` into the defaults and rejects limits that are not positive integers. */
export function resolveAgentLimits(overrides: Partial<AgentLimits> = {}): AgentLimits {
  const limits: AgentLimits = { ...DEFAULT_AGENT_LIMITS, ...overrides };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new InvalidArgumentError(
        `Agent limit '${key}' must be a positive integer, got ${String(value)}.`,
      );
    }
  }
  return limits;
}

/**
 * Why a run ended.
 * - `completed`: the model gave a final answer.
 * - `max-turns`, `timeout`, `tool-budget`, `tool-calls-per-step`, `repeated-tool-calls`: a limit
 *   of {@link AgentLimits}.
 * - `length`: a limit of the model: its response hit the output cap (`maxOutputTokens`) or
 *   the conversation no longer fits its context window.
 * - `aborted`: the caller's abort signal fired.
 * - `error`: the model failed (see the run's `error`).
 */
export type StopReason =
  | "completed"
  | "max-turns"
  | "timeout"
  | "tool-budget"
  | "tool-calls-per-step"
  | "repeated-tool-calls"
  | "length"
  | "quota"
  | "aborted"
  | "error";

/** True for the stop reasons that mean a limit was reached. */
export function isLimitStop(reason: StopReason): boolean {
  return (
    reason === "max-turns" ||
    reason === "timeout" ||
    reason === "tool-budget" ||
    reason === "tool-calls-per-step" ||
    reason === "repeated-tool-calls" ||
    reason === "length" ||
    reason === "quota"
  );
}
