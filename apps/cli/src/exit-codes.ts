import type { StopReason } from "@xzatoma/core";

/**
 * The exit codes of `xzatoma`, mapped once, here.
 *
 * | code | meaning |
 * |---|---|
 * | 0 | the agent gave its final answer |
 * | 1 | failure: the model failed or could not be reached, a plan or config is invalid |
 * | 2 | usage error: unknown command or flag, missing or invalid value |
 * | 3 | a limit stopped the run before a final answer (turns, time, tool calls) |
 * | 4 | the tree's quota was exceeded (agent.quota: tokens, subagent executions or time of the whole tree) |
 * | 130 | interrupted (Ctrl-C, SIGINT) |
 * | 143 | interrupted by SIGTERM (`kill`, `timeout`) |
 * | 129 | interrupted by SIGHUP (the terminal closed) |
 */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  limit: 3,
  quota: 4,
  interrupted: 130,
} as const;

/** The exit code a run ends with. */
export function exitCodeForStop(reason: StopReason): number {
  if (reason === "completed") return ExitCode.ok;
  if (reason === "aborted") return ExitCode.interrupted;
  // A budget shared by the whole tree, which a script tells apart from one agent's limit.
  if (reason === "quota") return ExitCode.quota;
  // Every other stop reason but `error` is a limit (see isLimitStop in @xzatoma/core); the
  // check is spelled out here so that `--help` loads no agent package.
  if (reason !== "error") return ExitCode.limit;
  return ExitCode.failure;
}

/** The signals that interrupt a run: it stops, is recorded as interrupted, and exits. */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** One of {@link STOP_SIGNALS}. */
export type StopSignal = (typeof STOP_SIGNALS)[number];

// The same numbers on Linux and macOS; spelled out so that `--help` does not load `os`.
const SIGNAL_NUMBERS: Record<StopSignal, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/**
 * The exit code of a run that `signal` interrupted: 128 plus the signal's number, as a shell
 * reports a process the signal ended (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
 */
export function exitCodeForSignal(signal: StopSignal): number {
  return 128 + SIGNAL_NUMBERS[signal];
}
