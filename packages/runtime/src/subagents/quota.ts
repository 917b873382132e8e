import type { QuotaConfig } from "./subagent-config.js";

/** Why the quota refuses or stops something, in words the model and the person read. */
export type QuotaRefusal = string;

/**
 * The budget one run's whole tree shares: subagent executions, tokens of every agent in the
 * tree (the top-level one included) and wall-clock time since the top-level run started.
 * An execution is reserved before a child starts, and refused once any of the three is
 * spent (tokens included: a child started then could only stop at its first response);
 * tokens are counted as each response reports them, so a child that crosses the budget is
 * stopped while it runs.
 */
export interface Quota {
  /**
   * Reserves one subagent execution; a refusal (and nothing reserved) when no execution, no
   * token or no time of the tree is left.
   */
  reserve(): QuotaRefusal | undefined;
  /** Adds a response's tokens; the refusal once the tree has used more than its budget. */
  spend(tokens: number): QuotaRefusal | undefined;
  /** Milliseconds left of the tree's time (0 when it is up). */
  timeLeftMs(): number;
  readonly used: { readonly executions: number; readonly tokens: number };
}

/** A quota for one run of the tree, starting now. */
export function createQuota(config: QuotaConfig, now: () => number = Date.now): Quota {
  const startedAt = now();
  const maxTimeMs = config.max_total_time_seconds * 1000;
  let executions = 0;
  let tokens = 0;
  const timeLeftMs = () => Math.max(0, maxTimeMs - (now() - startedAt));
  return {
    reserve() {
      if (executions >= config.max_executions)
        return `the run's quota of ${config.max_executions} subagent executions is used up (agent.quota.max_executions)`;
      if (tokens >= config.max_total_tokens)
        return `the run's quota of ${config.max_total_tokens} tokens is used up (${tokens} used; agent.quota.max_total_tokens)`;
      if (timeLeftMs() === 0)
        return `the run's quota of ${config.max_total_time_seconds} s is used up (agent.quota.max_total_time_seconds)`;
      executions += 1;
      return undefined;
    },
    spend(count) {
      tokens += count;
      return tokens > config.max_total_tokens
        ? `the run's quota of ${config.max_total_tokens} tokens is used up (${tokens} used; agent.quota.max_total_tokens)`
        : undefined;
    },
    timeLeftMs,
    get used() {
      return { executions, tokens };
    },
  };
}
