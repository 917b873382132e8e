import { expecting, flag, oneOf, positiveInteger, text, timerSeconds } from "@xzatoma/core/config";
import { PROVIDER_TYPES } from "@xzatoma/providers";
import { z } from "zod";

/** `agent.subagent`: delegation to child agents. */
export const subagentConfigSchema = z.strictObject({
  /** Offer `subagent` and `parallel_subagent` in `run` too (chat always offers them). */
  enabled: flag().default(false),
  /** How deep the tree may grow: 1 lets the top-level agent delegate, children not. */
  max_depth: positiveInteger(10).default(3),
  /** Model requests of one child unless its call asks for fewer or more (at most 50). */
  default_max_turns: positiveInteger(100).default(10),
  /** Bytes of a child's summary passed back to its parent. */
  output_max_size: expecting(z.number().int().min(1024), "an integer of at least 1024").default(
    16_384,
  ),
  /** Children `parallel_subagent` runs at once unless its call asks for fewer. */
  max_concurrent: positiveInteger(20).default(5),
  /** Store each child's conversation under its parent in history (when history is on). */
  persistence_enabled: flag().default(true),
  /** A provider for children instead of the parent's. */
  provider: oneOf(PROVIDER_TYPES).optional(),
  /** The children's model (of `provider` when set, else of the parent's provider). */
  model: text().optional(),
  /** @deprecated `agent.quota.max_executions`'s older name: still read (and winning), with a warning. */
  max_executions: positiveInteger().optional(),
  /** @deprecated `agent.quota.max_total_tokens`'s older name: still read (and winning), with a warning. */
  max_total_tokens: positiveInteger().optional(),
  /** @deprecated `agent.quota.max_total_time_seconds`'s older name: still read (and winning), with a warning. */
  max_total_time: timerSeconds().optional(),
});

/**
 * `agent.quota`: limits shared by the whole tree of one run (the top-level agent included)
 * when the run may delegate; a run without the delegation tools has only the `agent` limits.
 */
export const quotaConfigSchema = z.strictObject({
  /** Subagents started in one run, at every depth. */
  max_executions: positiveInteger().default(100),
  /** Tokens (in and out) of every agent of the tree together. */
  max_total_tokens: positiveInteger().default(1_000_000),
  /** Tool calls of every agent of the tree together (each agent also has agent.max_tool_calls). */
  max_total_tool_calls: positiveInteger().default(1000),
  /** Wall-clock time of the tree, from the top-level run's start (a timer: at most ~24.8 days). */
  max_total_time_seconds: timerSeconds().default(3600),
});

export type SubagentConfig = z.output<typeof subagentConfigSchema>;
export type QuotaConfig = z.output<typeof quotaConfigSchema>;
