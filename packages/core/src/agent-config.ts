/**
 * The agent's slice of the configuration file (`agent.max_turns`, `agent.conversation`, ...)
 * in the file's snake_case names, as zod schemas. Exported from `@xzatoma/core/config`, so
 * nothing that only runs an agent loads zod for them; `agentOptionsFromConfig` maps the
 * parsed slice onto `Agent` options.
 */
import { z } from "zod";
import { DEFAULT_AGENT_LIMITS, DEFAULT_MAX_OUTPUT_TOKENS } from "./agent-limits.js";
import {
  fraction,
  fractionOrOff,
  positiveInteger,
  timerSeconds,
  wholeNumber,
  withRule,
} from "./config-fields.js";
import { criticalAtLeastWarning } from "./conversation-thresholds.js";

/**
 * The limit keys of the `agent` section, as a shape to spread into its `z.strictObject`.
 * Parsing `{}` gives {@link DEFAULT_AGENT_LIMITS} and {@link DEFAULT_MAX_OUTPUT_TOKENS}.
 */
export const agentLimitsConfigShape = {
  max_turns: positiveInteger(1000).default(DEFAULT_AGENT_LIMITS.maxTurns),
  timeout_seconds: timerSeconds().default(DEFAULT_AGENT_LIMITS.timeoutMs / 1000),
  max_tool_calls: positiveInteger().default(DEFAULT_AGENT_LIMITS.maxToolCalls),
  max_tool_calls_per_step: positiveInteger().default(DEFAULT_AGENT_LIMITS.maxToolCallsPerStep),
  max_repeated_tool_calls: positiveInteger().default(DEFAULT_AGENT_LIMITS.maxRepeatedToolCalls),
  /** The most tokens of one model response (before the context window caps it further). */
  max_output_tokens: positiveInteger().default(DEFAULT_MAX_OUTPUT_TOKENS),
};

/** `agent.conversation`: the context budget, pruning and status levels. */
export const conversationConfigSchema = withRule(
  z.strictObject({
    max_tokens: positiveInteger().default(100_000),
    min_retain_turns: wholeNumber().default(5),
    prune_threshold: fractionOrOff().default(0.8),
    warning_threshold: fraction().default(0.85),
    critical_threshold: fraction().default(0.95),
  }),
  criticalAtLeastWarning,
);

/** The limit keys of the `agent` section after defaults. */
export type AgentLimitsConfig = z.output<z.ZodObject<typeof agentLimitsConfigShape>>;

/** `agent.conversation` after defaults. */
export type ConversationConfig = z.output<typeof conversationConfigSchema>;
