/**
 * The conversation budget of an agent: planned for the context window the provider will
 * really use, with the tool definitions every request carries counted in it.
 */
import { estimateTextTokens } from "@xzatoma/conversation";
import {
  agentOptionsFromConfig,
  type AgentConfigSlice,
  type AgentOptionsFromConfig,
  type ToolRegistry,
} from "@xzatoma/core";
import { SKILL_TOOL_NAME } from "./skills/skill-tool.js";

/**
 * The tools whose results compaction keeps verbatim: every activated skill's instructions,
 * and the latest plan a `plan` call read and the latest progress through it (older ones
 * are superseded and may be pruned).
 */
export const KEPT_TOOL_RESULTS = {
  [SKILL_TOOL_NAME]: "all",
  plan: "latest",
  mark_instruction_done: "latest",
} as const;

/**
 * {@link agentOptionsFromConfig} for a model whose window is `contextWindow` tokens, where
 * the tool definitions of `registry` (sent with every request, outside the messages) count
 * against the budget until the provider reports what a request really cost.
 *
 * @example
 * const options = agentOptionsForWindow(config.agent, await provider.resolveContextWindow(model), registry);
 */
export function agentOptionsForWindow(
  agent: AgentConfigSlice,
  contextWindow: number,
  registry: ToolRegistry,
): AgentOptionsFromConfig {
  const fromConfig = agentOptionsFromConfig(agent, contextWindow);
  const tools = estimateTextTokens(JSON.stringify(registry.specifications()));
  return {
    ...fromConfig,
    context: {
      ...fromConfig.context,
      reservedTokens: Math.min(tools, fromConfig.context.maxTokens - 1),
      keptTools: KEPT_TOOL_RESULTS,
    },
  };
}
