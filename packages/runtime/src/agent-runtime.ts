import type { Tool } from "@xzatoma/core";
import type { AuditLog } from "@xzatoma/safety";
import type { AgentRuntimeOptions } from "./compose/runtime-options.js";
import type { AgentRuntime } from "./compose/runtime-interface.js";
import { createAgentBuilder } from "./compose/agent-builder.js";

import { createConversationRecording } from "./compose/conversation-recording.js";
import { RunScope } from "./compose/run-scope.js";
import { buildRuntimeApprovals } from "./compose/runtime-approvals.js";
import {
  openHistoryOf,
  resumedConversation,
  type RuntimeHistory,
  type StoredConversation,
} from "./compose/runtime-history.js";
import { buildRuntimeHooks } from "./compose/runtime-hooks.js";
import { buildRuntimeMcp } from "./compose/runtime-mcp.js";
import { createRuntimeObject } from "./compose/runtime-object.js";
import type { RuntimeParts } from "./compose/runtime-parts.js";
import { buildRuntimeProviders, type RuntimeProviders } from "./compose/runtime-providers.js";
import { RuntimeSession } from "./compose/runtime-session.js";
import { buildRuntimeTools } from "./compose/runtime-tools.js";
import { buildRuntimeWorkspace } from "./compose/runtime-workspace.js";
import { baseSystemPrompt, loadSessionContent } from "./compose/session-content.js";
import { buildSubagentScope } from "./compose/subagent-scope.js";
import { createAuditSink } from "./audit-sink.js";
import type { RuntimeConfig } from "./config/config-values.js";
import { createToolSearch } from "./mcp/tool-search.js";
import { createRuntimeEvents, type RuntimeEvents } from "./runtime-events.js";
import type { RuntimeIO } from "./runtime-io.js";
import { checkTemplateWorkspace } from "./runtime-template.js";
import { createSkillTool } from "./skills/skill-tool.js";
import { SUBAGENT_TOOL_NAMES } from "./subagents/subagent-tools.js";

export { conversationTitle } from "./compose/conversation-recording.js";
export type { AgentRuntimeOptions } from "./compose/runtime-options.js";
export type {
  AgentRuntime,
  RuntimeRunOptions,
  RuntimeStatus,
} from "./compose/runtime-interface.js";

/**
 * Builds a running agent from a configuration. The one composition root: the CLI's chat and
 * run, the watcher and embedders call this and add only their own I/O. Each part is made by
 * its builder in `compose/` (see docs/explanation/composition-root.md); what changes while
 * the runtime lives is its session, and the object returned reads both.
 *
 * @example
 * const runtime = await createAgentRuntime(config, { warn: console.error }, {
 *   workspace: process.cwd(),
 *   modes: { chatMode: "planning", approvalPolicy: "never" },
 * });
 * const result = await runtime.run("Summarise README.md");
 * await runtime.close();
 */
export async function createAgentRuntime(
  config: RuntimeConfig,
  io: RuntimeIO,
  options: AgentRuntimeOptions,
): Promise<AgentRuntime> {
  const env = options.env ?? process.env;
  if (options.template) checkTemplateWorkspace(options.template, options.workspace);
  // Opened once the tools are built; the checkpoints look it up only past their size cap.
  const opened: { history?: RuntimeHistory } = {};
  const { auditLog, checkpoints, workspace } = buildRuntimeWorkspace(
    config,
    options,
    () => opened.history?.store,
  );
  const { standard, tools } = await buildRuntimeTools(config, io, options, workspace, auditLog);
  const subagents = options.subagents ?? config.agent.subagent.enabled;
  const providers = buildRuntimeProviders(config, io, {
    env,
    workspace: workspace.root,
    given: options.provider,
    subagents,
  });
  const content = await loadSessionContent(config, io, options, workspace.root);
  const skills = content.skills?.offered ?? [];
  if (skills.length > 0) tools.push(createSkillTool(skills));
  const mcp = buildRuntimeMcp(config, io, {
    env,
    workspace,
    clientServers: options.clientMcpServers,
    reservedNames: [...tools.map((tool) => tool.name), ...SUBAGENT_TOOL_NAMES],
  });
  const history = (opened.history = openHistoryOf(config, options.history));
  const resumed = resumedConversation(history, options.history);
  const { provider } = providers;
  const session = new RuntimeSession(
    provider.defaultModel,
    provider.contextWindow(provider.defaultModel),
  );
  const record = createConversationRecording({
    history: history.store,
    checkpoints,
    workspace: workspace.root,
    title: options.history === false ? undefined : options.history?.title,
    describe: () => ({ provider: provider.name, model: session.model }),
    entries: () => session.agent.conversation.entries(),
  });
  const parts: RuntimeParts = {
    config,
    io,
    options,
    modes: options.modes,
    provider,
    workspace,
    standard,
    mcp,
    toolSearch: createToolSearch(config.mcp, () => mcp?.servers() ?? []),
    hooks: buildRuntimeHooks(config, io, {
      env,
      workspace: workspace.root,
      modes: options.modes,
      sessionId: () => session.recorder?.conversationId,
    }),
    checkpoints,
    history,
    record,
    events: runtimeEventsOf(io),
    run: new RunScope(config),
    subagents,
    content,
    skills,
  };
  await startSession(parts, session, { providers, tools, auditLog, resumed });
  return createRuntimeObject(parts, session);
}

/** The runtime's listeners; `io.render` (deprecated) is the first subscriber. */
function runtimeEventsOf(io: RuntimeIO): RuntimeEvents {
  const events = createRuntimeEvents();
  const render = io.render;
  if (render) events.subscribe((event) => render(event));
  return events;
}

/** What {@link startSession} builds the agent from, besides the runtime's parts. */
interface SessionStart {
  readonly providers: RuntimeProviders;
  readonly tools: readonly Tool[];
  readonly auditLog: AuditLog;
  /** The stored conversation continued; undefined for a new one. */
  readonly resumed: StoredConversation | undefined;
}

/**
 * Starts the session of a new runtime: its recorder (on the continued conversation, if
 * any), the approvals and audit every agent of the runtime shares, the delegation scope when
 * subagents are on, the MCP servers that connect at start, the `SessionStart` hooks, and
 * then the first agent.
 */
async function startSession(
  parts: RuntimeParts,
  session: RuntimeSession,
  start: SessionStart,
): Promise<void> {
  const { config, hooks, workspace, options } = parts;
  const { resumed } = start;
  if (resumed) {
    session.totals = resumed.usage;
    session.pinnedMessages = resumed.pinned;
  }
  session.recorder = parts.record(resumed?.id, resumed?.messages ?? []);
  const approve = buildRuntimeApprovals(parts.modes, parts.io, hooks);
  const audit = createAuditSink(start.auditLog, workspace.root);
  const subagentScope = parts.subagents
    ? buildSubagentScope({
        config,
        providers: start.providers,
        model: () => session.model,
        workspace: workspace.root,
        approve,
        audit,
        run: parts.run,
        events: parts.events,
        history: parts.history.store,
        hooks,
        observeSubagent: options.observeSubagent,
      })
    : undefined;
  const systemPrompt = baseSystemPrompt({
    workspace: workspace.root,
    toolNames: [
      ...start.tools.map((tool) => tool.name),
      ...(parts.subagents ? SUBAGENT_TOOL_NAMES : []),
    ],
    instructions: parts.content.instructions,
    skills: parts.skills,
  });
  const build = createAgentBuilder({
    config,
    modes: parts.modes,
    provider: parts.provider,
    tools: start.tools,
    hooks,
    subagentScope,
    toolSearch: parts.toolSearch,
    approve,
    audit,
    limits: options.limits,
    systemPrompt,
  });
  if (parts.mcp) session.mcpTools = await parts.mcp.connect("start");
  session.sessionContext = await hooks.start(resumed ? "resume" : "startup", session.model);
  session.start(build, resumed?.messages ?? []);
}
