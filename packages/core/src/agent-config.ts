/**
 * The agent's slice of the configuration file (`agent.max_turns`, `agent.conversation`, ...)
 * in the file's snake_case names, and its mapping onto {@link AgentOptions}.
 */
import type { ConversationOptions } from "@xzatoma/conversation";
import { z } from "zod";
import {
  DEFAULT_AGENT_LIMITS,
  DEFAULT_MAX_OUTPUT_TOKENS,
  type AgentLimits,
} from "./agent-limits.js";
import type { ModelCallSettings } from "./agent-run.js";
import {
  fraction,
  fractionOrOff,
  positiveInteger,
  timerSeconds,
  wholeNumber,
} from "./config-fields.js";
import { InvalidArgumentError } from "./errors.js";

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
export const conversationConfigSchema = z
  .strictObject({
    max_tokens: positiveInteger().default(100_000),
    min_retain_turns: wholeNumber().default(5),
    prune_threshold: fractionOrOff().default(0.8),
    warning_threshold: fraction().default(0.85),
    critical_threshold: fraction().default(0.95),
  })
  .superRefine((value, context) => {
    if (value.critical_threshold < value.warning_threshold) {
      context.addIssue({
        code: "custom",
        path: ["critical_threshold"],
        params: { explained: true },
        message: `must be at least warning_threshold (${value.warning_threshold}), got ${value.critical_threshold}`,
      });
    }
  });

/** The limit keys of the `agent` section after defaults. */
export type AgentLimitsConfig = z.output<z.ZodObject<typeof agentLimitsConfigShape>>;

/** `agent.conversation` after defaults. */
export type ConversationConfig = z.output<typeof conversationConfigSchema>;

/** What {@link agentOptionsFromConfig} reads of the `agent` section. */
export interface AgentConfigSlice extends AgentLimitsConfig {
  readonly conversation: ConversationConfig;
}

/** The options of an `Agent` that come from the configuration. */
export interface AgentOptionsFromConfig {
  readonly limits: AgentLimits;
  readonly context: ConversationOptions;
  readonly callSettings: ModelCallSettings;
}

/**
 * Maps the `agent` section onto `Agent` options for a model whose context window holds
 * `contextWindow` tokens:
 * - `limits`: the limit keys, `timeout_seconds` in milliseconds.
 * - `callSettings.maxOutputTokens`: `max_output_tokens`, but at most a quarter of the window,
 *   so that one response cannot take the room the conversation needs.
 * - `context.maxTokens`: `conversation.max_tokens`, but at most the window minus the room
 *   kept for the response; the other conversation keys as they are, except that
 *   `min_retain_turns: 0` keeps the current turn (1), as the current turn is never dropped.
 *
 * @example
 * const options = agentOptionsFromConfig(config.agent, provider.contextWindow(model));
 * const agent = new Agent({ model, tools, ...options });
 */
export function agentOptionsFromConfig(
  agent: AgentConfigSlice,
  contextWindow: number,
): AgentOptionsFromConfig {
  if (!Number.isInteger(contextWindow) || contextWindow < 2) {
    throw new InvalidArgumentError(
      `The context window must be an integer of at least 2 tokens, got ${String(contextWindow)}.`,
    );
  }
  const maxOutputTokens = Math.min(agent.max_output_tokens, Math.floor(contextWindow / 4) || 1);
  const conversation = agent.conversation;
  return {
    limits: {
      maxTurns: agent.max_turns,
      timeoutMs: agent.timeout_seconds * 1000,
      maxToolCalls: agent.max_tool_calls,
      maxToolCallsPerStep: agent.max_tool_calls_per_step,
      maxRepeatedToolCalls: agent.max_repeated_tool_calls,
    },
    context: {
      maxTokens: Math.min(conversation.max_tokens, contextWindow - maxOutputTokens),
      pruneThreshold: conversation.prune_threshold,
      minRetainTurns: Math.max(1, conversation.min_retain_turns),
      warningThreshold: conversation.warning_threshold,
      criticalThreshold: conversation.critical_threshold,
    },
    callSettings: { maxOutputTokens },
  };
}
