import type { StopReason } from "@xzatoma/core";

/**
 * The exit codes of `xzatoma`, mapped once, here.
 *
 * | code | meaning |
 * |---|---|
 * | 0 | the agent gave its final answer |
 * | 1 | failure: the model failed, or a limit stopped the run before a final answer |
 * | 2 | usage error: unknown command or flag, missing or invalid value |
 * | 130 | interrupted (Ctrl-C) |
 */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  interrupted: 130,
} as const;

/** The exit code a run ends with. */
export function exitCodeForStop(reason: StopReason): number {
  if (reason === "completed") return ExitCode.ok;
  if (reason === "aborted") return ExitCode.interrupted;
  return ExitCode.failure;
}
