import type { AgentEvent, ApprovalHandler, ToolAuditSink } from "@xzatoma/core";
import type { History } from "@xzatoma/persistence";
import type { RuntimeConfig } from "../config/config-values.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { RuntimeEvents } from "../runtime-events.js";
import type { SubagentScope } from "../subagents/subagent-tools.js";
import type { RunScope } from "./run-scope.js";
import type { RuntimeProviders } from "./runtime-providers.js";
import type { AgentRuntimeOptions } from "./runtime-options.js";

/** What the subagents of a runtime are built from. */
export interface SubagentParts {
  readonly config: RuntimeConfig;
  readonly providers: RuntimeProviders;
  /** The runtime's model in force (the children's, unless `agent.subagent.model` names one). */
  readonly model: () => string;
  readonly workspace: string;
  readonly approve: ApprovalHandler;
  readonly audit: ToolAuditSink;
  readonly run: RunScope;
  readonly events: RuntimeEvents;
  readonly history: History | undefined;
  readonly hooks: SessionHooks;
  readonly observeSubagent: AgentRuntimeOptions["observeSubagent"];
}

/**
 * The scope the delegation tools (`subagent`, `parallel_subagent`) work in: the children's
 * provider and model, the parent's approvals and audit, the top-level run's quota, turn and
 * event stream, history and hooks. Each child's events go to its telemetry span, the
 * deprecated `observeSubagent` listener and the subscribers that asked for subagents.
 */
export function buildSubagentScope(parts: SubagentParts): SubagentScope {
  const { config, providers, run, events } = parts;
  const subagent = config.agent.subagent;
  const { childProvider } = providers;
  return {
    config: subagent,
    agentConfig: config.agent,
    provider: childProvider ?? providers.provider,
    model: () => subagent.model ?? (childProvider ? childProvider.defaultModel : parts.model()),
    workspace: parts.workspace,
    maxOutputBytes: config.agent.tools.max_output_size,
    approve: parts.approve,
    audit: parts.audit,
    quota: () => run.quota,
    emit: (event) => run.emit(event),
    turn: () => run.turn,
    track: (running) => run.track(running),
    ...(parts.history ? { history: parts.history } : {}),
    hooks: parts.hooks,
    refused: (event) => run.telemetry?.onEvent(event),
    observe: (child) => {
      const childTelemetry = run.telemetry?.subagent(child);
      const observer = parts.observeSubagent?.(child);
      return (event: AgentEvent) => {
        childTelemetry?.onEvent(event);
        observer?.(event);
        events.emitSubagent(event, child);
      };
    },
  };
}
