/**
 * The budgets of a run's whole tree (the top-level agent and every subagent under it), as
 * the `agent.quota` configuration names them:
 * - `tokens`: tokens in and out of every agent of the tree (`max_total_tokens`);
 * - `tool-calls`: tool calls of every agent of the tree (`max_total_tool_calls`);
 * - `executions`: subagents started, at every depth (`max_executions`);
 * - `time`: wall-clock time since the top-level run started (`max_total_time_seconds`).
 */
export type QuotaBudget = "tokens" | "tool-calls" | "executions" | "time";

/** Which budget of the tree was exceeded, and by how much: the detail of the stop reason `quota`. */
export interface QuotaExceeded {
  readonly budget: QuotaBudget;
  /** The configured budget: tokens, tool calls, executions, or seconds. */
  readonly limit: number;
  /** What the tree used when it was stopped, in the same unit. */
  readonly used: number;
  /** The configuration key that raises it, such as `agent.quota.max_total_tokens`. */
  readonly key: string;
  /** One sentence for the person: what was exceeded and what raises it. */
  readonly message: string;
}
