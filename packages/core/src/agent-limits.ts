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
  /** Responses in a row that call tools without any text. Default 25. */
  readonly maxConsecutiveToolSteps: number;
}

/** The default limits. */
export const DEFAULT_AGENT_LIMITS: AgentLimits = Object.freeze({
  maxTurns: 50,
  timeoutMs: 300_000,
  maxToolCalls: 200,
  maxToolCallsPerStep: 16,
  maxConsecutiveToolSteps: 25,
});

/** Merges `overrides` into the defaults and rejects limits that are not positive integers. */
export function resolveAgentLimits(overrides: Partial<AgentLimits> = {}): AgentLimits {
  const limits = { ...DEFAULT_AGENT_LIMITS, ...overrides };
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
 * - `max-turns`, `timeout`, `tool-budget`, `tool-calls-per-step`, `consecutive-tool-steps`: a limit.
 * - `aborted`: the caller's abort signal fired.
 * - `error`: the model failed (see the run's `error`).
 */
export type StopReason =
  | "completed"
  | "max-turns"
  | "timeout"
  | "tool-budget"
  | "tool-calls-per-step"
  | "consecutive-tool-steps"
  | "aborted"
  | "error";

/** True for the stop reasons that mean a limit was reached. */
export function isLimitStop(reason: StopReason): boolean {
  return (
    reason === "max-turns" ||
    reason === "timeout" ||
    reason === "tool-budget" ||
    reason === "tool-calls-per-step" ||
    reason === "consecutive-tool-steps"
  );
}
