import type { ConversationOptions } from "@xzatoma/conversation";
import type { XzatomaConfig } from "../config/index.js";

/** The conversation settings of the configuration, for a model with the given window. */
export function contextOptions(config: XzatomaConfig, contextWindow: number): ConversationOptions {
  const conversation = config.agent.conversation;
  return {
    maxTokens: Math.min(contextWindow, conversation.maxTokens),
    pruneThreshold: conversation.pruneThreshold,
    minRetainTurns: conversation.minRetainTurns,
    warningThreshold: conversation.warningThreshold,
    criticalThreshold: conversation.criticalThreshold,
  };
}
