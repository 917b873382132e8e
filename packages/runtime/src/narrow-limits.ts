import type { AgentLimits } from "@xzatoma/core";

/**
 * The configured limits, narrowed by what a run asks for: each limit is the smaller of the
 * two. A plan or an event (`max_iterations`) can lower a limit the operator configured,
 * never raise it; only the configuration (file, environment, flags) raises one.
 *
 * @example
 * narrowLimits(configured, { maxTurns: 13 }).maxTurns; // 3 when agent.max_turns is 3
 */
export function narrowLimits(
  configured: AgentLimits,
  requested: Partial<AgentLimits> | undefined,
): AgentLimits {
  const narrowed = { ...configured };
  for (const key of Object.keys(configured) as (keyof AgentLimits)[]) {
    const asked = requested?.[key];
    // Anything but a number is no request at all: the configured limit holds.
    if (typeof asked === "number" && !Number.isNaN(asked))
      narrowed[key] = Math.min(configured[key], asked);
  }
  return narrowed;
}
