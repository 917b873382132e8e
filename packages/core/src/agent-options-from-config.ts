/**
 * The mapping of the agent's configuration slice onto `Agent` options. The slice's schemas are
 * in `agent-config.ts` (`@xzatoma/core/config`); this file needs only their types.
 */
import type { ConversationOptions } from "@xzatoma/conversation";
import type { AgentLimits } from "./agent-limits.js";
import type { AgentLimitsConfig, ConversationConfig } from "./agent-config.js";
import type { ModelCallSettings } from "./agent-run.js";
import { InvalidArgumentError } from "./errors.js";

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
