import {
  addUsage,
  EMPTY_USAGE,
  RunStop,
  type QuotaBudget,
  type QuotaExceeded,
  type Usage,
} from "@xzatoma/core";
import type { QuotaConfig } from "./subagent-config.js";

/** Why the quota refuses or stops something, in words the model and the person read. */
export type QuotaRefusal = string;

/**
 * The budget one run's whole tree shares: subagent executions, tokens of every agent in the
 * tree (the top-level one included, every final answer included) and wall-clock time since
 * the top-level run started.
 *
 * An execution is reserved before a child starts and refused, with a result its parent
 * reads, once no execution, token or second is left: nothing is spent beyond the budget by
 * a refusal, so the parent may go on without the child. Tokens are counted as each response
 * reports them; the response that takes the tree past its token budget, or the moment its
 * time is up, **trips** the quota: {@link signal} aborts with `RunStop("quota")` and every
 * run of the tree listening to it (the top-level one and each child) stops with the stop
 * reason `quota`. A tree never goes on spending after its budget is exceeded.
 */
export interface Quota {
  /**
   * Reserves one subagent execution; a refusal (and nothing reserved) when no execution, no
   * token or no time of the tree is left.
   */
  reserve(): QuotaRefusal | undefined;
  /** Adds a response's tokens; trips the quota and returns why once the tree has used more than its budget. */
  spend(usage: Usage): QuotaRefusal | undefined;
  /**
   * Counts a tool call an agent of the tree asked for; trips the quota (before the call
   * runs: its agent's signal is aborted) once the tree asked for more than its budget.
   */
  call(): QuotaRefusal | undefined;
  /** Milliseconds left of the tree's time (0 when it is up). */
  timeLeftMs(): number;
  /** Aborted, with `RunStop("quota")`, once a budget of the tree is exceeded. */
  readonly signal: AbortSignal;
  /** Which budget was exceeded, once one was. */
  readonly exceeded: QuotaExceeded | undefined;
  readonly used: {
    readonly executions: number;
    readonly tokens: number;
    readonly toolCalls: number;
  };
  /** The tokens of every agent of the tree so far. */
  readonly usage: Usage;
  /** Stops the tree's clock (the run is over). */
  close(): void;
}

const KEYS: Record<QuotaBudget, string> = {
  tokens: "agent.quota.max_total_tokens",
  "tool-calls": "agent.quota.max_total_tool_calls",
  executions: "agent.quota.max_executions",
  time: "agent.quota.max_total_time_seconds",
};

function describe(budget: QuotaBudget, limit: number, used: number): string {
  switch (budget) {
    case "tokens":
      return `the run's quota of ${limit} tokens is used up (${used} used; ${KEYS.tokens})`;
    case "tool-calls":
      return `the run's quota of ${limit} tool calls is used up (${used} asked for; ${KEYS["tool-calls"]})`;
    case "executions":
      return `the run's quota of ${limit} subagent executions is used up (${KEYS.executions})`;
    case "time":
      return `the run's quota of ${limit} s is used up (${KEYS.time})`;
  }
}

/** A quota for one run of the tree, starting now; its clock trips it when the time is up. */
export function createQuota(config: QuotaConfig, now: () => number = Date.now): Quota {
  const startedAt = now();
  const maxTimeMs = config.max_total_time_seconds * 1000;
  const controller = new AbortController();
  let executions = 0;
  let toolCalls = 0;
  let usage: Usage = EMPTY_USAGE;
  let exceeded: QuotaExceeded | undefined;
  const timeLeftMs = () => Math.max(0, maxTimeMs - (now() - startedAt));
  const trip = (budget: QuotaBudget, limit: number, used: number): QuotaRefusal => {
    const message = describe(budget, limit, used);
    if (!exceeded) {
      exceeded = { budget, limit, used, key: KEYS[budget], message };
      controller.abort(new RunStop("quota"));
    }
    return message;
  };
  const clock = setTimeout(
    () => trip("time", config.max_total_time_seconds, Math.round((now() - startedAt) / 1000)),
    maxTimeMs,
  );
  // The clock alone never keeps the process alive.
  clock.unref?.();
  return {
    reserve() {
      if (executions >= config.max_executions)
        return describe("executions", config.max_executions, executions);
      if (usage.totalTokens >= config.max_total_tokens)
        return describe("tokens", config.max_total_tokens, usage.totalTokens);
      if (timeLeftMs() === 0) return describe("time", config.max_total_time_seconds, 0);
      executions += 1;
      return undefined;
    },
    spend(response) {
      usage = addUsage(usage, response);
      return usage.totalTokens > config.max_total_tokens
        ? trip("tokens", config.max_total_tokens, usage.totalTokens)
        : undefined;
    },
    call() {
      toolCalls += 1;
      return toolCalls > config.max_total_tool_calls
        ? trip("tool-calls", config.max_total_tool_calls, toolCalls)
        : undefined;
    },
    timeLeftMs,
    signal: controller.signal,
    get exceeded() {
      // Tokens reported after the trip (a child's response in flight) count too.
      if (exceeded?.budget !== "tokens") return exceeded;
      const used = usage.totalTokens;
      return { ...exceeded, used, message: describe("tokens", exceeded.limit, used) };
    },
    get used() {
      return { executions, tokens: usage.totalTokens, toolCalls };
    },
    get usage() {
      return usage;
    },
    close() {
      clearTimeout(clock);
    },
  };
}
