import type { ConversationOptions } from "@xzatoma/conversation";
import type { AgentLimits } from "@xzatoma/core";
import type { RuntimeConfig } from "../config/index.js";

/** The conversation settings of the configuration, for a model with the given window. */
export function contextOptions(config: RuntimeConfig, contextWindow: number): ConversationOptions {
  const conversation = config.agent.conversation;
  return {
    maxTokens: Math.min(contextWindow, conversation.max_tokens),
    pruneThreshold: conversation.prune_threshold,
    minRetainTurns: conversation.min_retain_turns,
    warningThreshold: conversation.warning_threshold,
    criticalThreshold: conversation.critical_threshold,
  };
}

/** The agent's limits from the configuration. */
export function toAgentLimits(config: RuntimeConfig): AgentLimits {
  return {
    maxTurns: config.agent.max_turns,
    timeoutMs: config.agent.timeout_seconds * 1000,
    maxToolCalls: config.agent.max_tool_calls,
    maxToolCallsPerStep: config.agent.max_tool_calls_per_step,
    maxConsecutiveToolSteps: config.agent.max_consecutive_tool_steps,
  };
}
