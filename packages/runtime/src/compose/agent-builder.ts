import {
  Agent,
  createToolRegistry,
  type AgentLimits,
  type ApprovalHandler,
  type Tool,
  type ToolAuditSink,
} from "@xzatoma/core";
import type { Provider } from "@xzatoma/providers";
import { isToolAvailable } from "@xzatoma/safety";
import type { RuntimeConfig } from "../config/config-values.js";
import { agentOptionsForWindow } from "../context-budget.js";
import { withPromptContext, type SessionHooks } from "../hooks/session-hooks.js";
import { withHooks } from "../hooks/with-hooks.js";
import type { ToolSearch } from "../mcp/tool-search.js";
import { narrowLimits } from "../narrow-limits.js";
import type { SessionModes } from "../session-modes.js";
import { createSubagentTools, type SubagentScope } from "../subagents/subagent-tools.js";
import type { AgentBuilder } from "./runtime-session.js";

/** What every agent of one runtime is built from, whatever its mode and model. */
export interface AgentParts {
  readonly config: RuntimeConfig;
  readonly modes: SessionModes;
  readonly provider: Provider;
  /** The runtime's own tools (built-in, extra, packaged, the skill tool); MCP tools come from the session. */
  readonly tools: readonly Tool[];
  readonly hooks: SessionHooks;
  /** Present when the delegation tools are offered. */
  readonly subagentScope: SubagentScope | undefined;
  readonly toolSearch: ToolSearch;
  readonly approve: ApprovalHandler;
  readonly audit: ToolAuditSink;
  /** What the runtime's runs ask for (a plan's `max_iterations`): only narrows the configured limits. */
  readonly limits: Partial<AgentLimits> | undefined;
  /** The system prompt before what `SessionStart` hooks add. */
  readonly systemPrompt: string;
}

/**
 * The builder of a runtime's agent: a registry of the tools the session's chat mode allows
 * (the runtime's and the MCP servers', each wrapped in the hooks), the delegation tools when
 * subagents are on, the MCP tools past their budget behind `tool_search`, and the limits
 * and context budget for the session's model and window. Called again on every mode, model
 * or tool change, so delegation and MCP tools survive it with the new mode's tools.
 */
export function createAgentBuilder(parts: AgentParts): AgentBuilder {
  const { config, hooks, subagentScope } = parts;
  const hooked = (tool: Tool) => withHooks(tool, hooks.runner);
  return (session, messages) => {
    const registry = createToolRegistry({ maxOutputBytes: config.agent.tools.max_output_size });
    const available = [...parts.tools, ...session.mcpTools]
      .filter((tool) => isToolAvailable(parts.modes.chatMode, tool.access))
      .map(hooked);
    for (const tool of available) registry.register(tool);
    if (subagentScope) {
      const level = { depth: 0, tools: available, conversationId: () => session.recorder?.store() };
      for (const tool of createSubagentTools(subagentScope, level)) registry.register(tool);
    }
    const mcpNames = new Set(session.mcpTools.map((tool) => tool.name));
    const offered = parts.toolSearch.offer(registry, mcpNames, session.window, hooked);
    const fromConfig = agentOptionsForWindow(config.agent, session.window, offered);
    return new Agent({
      ...fromConfig,
      model: parts.provider.languageModel(session.model),
      tools: offered,
      systemPrompt: withPromptContext(parts.systemPrompt, "SessionStart", session.sessionContext),
      approve: parts.approve,
      audit: parts.audit,
      history: messages,
      pinnedHistory: session.pinnedMessages,
      // What a run asks for (a plan's, an event's) only narrows what is configured.
      limits: narrowLimits(fromConfig.limits, parts.limits),
    });
  };
}
