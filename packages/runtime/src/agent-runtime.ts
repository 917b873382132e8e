import path from "node:path";
import type { Message } from "@xzatoma/conversation";
import {
  Agent,
  agentOptionsFromConfig,
  createToolRegistry,
  loadToolPackage,
  type AgentEvent,
  type AgentLimits,
  type AgentResult,
  type Tool,
  type Usage,
} from "@xzatoma/core";
import { createHistoryRecorder, type History } from "@xzatoma/persistence";
import { createProvider, type Provider } from "@xzatoma/providers";
import {
  createApprovalHandler,
  createAuditLog,
  createSandbox,
  isToolAvailable,
  type ChatMode,
  type SafetyMode,
} from "@xzatoma/safety";
import { createStandardTools, createWorkspaceContext, type WorkspaceContext } from "@xzatoma/tools";
import { XzatomaError } from "@xzatoma/errors";
import { createAuditSink } from "./audit-sink.js";
import type { RuntimeConfig } from "./config/config-schema.js";
import { openRuntimeHistory } from "./open-history.js";
import { loadProjectInstructions } from "./project-instructions.js";
import type { RuntimeIO } from "./runtime-io.js";
import type { SessionModes } from "./session-modes.js";
import { createSystemPrompt } from "./system-prompt.js";

/** Options of {@link createAgentRuntime}. */
export interface AgentRuntimeOptions {
  /** The workspace root: an existing directory. */
  readonly workspace: string;
  /** The modes the session starts in; the runtime keeps and changes this object. */
  readonly modes: SessionModes;
  /** The config file in use: tools may never write it. */
  readonly configPath?: string;
  /** The environment the provider's credentials and the sandbox read. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Overrides of the configured limits for this runtime's runs (a plan's `max_turns`). */
  readonly limits?: Partial<AgentLimits>;
  /** Tools added to the configured ones (a plan's progress tool). */
  readonly extraTools?: readonly Tool[];
  /**
   * History recording: `false` turns it off for this runtime even when the configuration
   * enables it. `resume` continues a stored conversation (an id or a unique prefix).
   */
  readonly history?:
    false | { readonly resume?: string; readonly title?: (firstMessage: string) => string };
  /** An already created provider (tests, embedders with their own model). */
  readonly provider?: Provider;
}

/** The session state a front end shows (`/status`). */
export interface RuntimeStatus {
  readonly mode: ChatMode;
  readonly safety: SafetyMode;
  readonly execution: SessionModes["executionMode"];
  readonly provider: string;
  readonly model: string;
  readonly workspace: string;
  readonly tools: readonly string[];
  readonly messages: number;
  /** Tokens of every run of this conversation so far. */
  readonly usage: Usage;
}

/** Options of one {@link AgentRuntime.run}. */
export interface RuntimeRunOptions {
  readonly signal?: AbortSignal;
  /** Receives this run's events, after the runtime's own listeners and `io.render`. */
  readonly onEvent?: (event: AgentEvent) => void;
}

/**
 * A running agent: one conversation that survives mode, safety and model switches, with the
 * provider, tools, command policy, approvals, audit and history recording wired from the
 * configuration. Every front end (chat, run, the watcher, an editor) drives one of these.
 */
export interface AgentRuntime {
  readonly provider: Provider;
  readonly workspace: WorkspaceContext;
  readonly modes: SessionModes;
  readonly model: string;
  readonly config: RuntimeConfig;
  /** The stored conversation's id once something was written; undefined without history. */
  readonly conversationId: string | undefined;
  readonly messages: readonly Message[];
  /** The agent of the current mode and model (its conversation, registry and limits). */
  readonly agent: Agent;
  /** Fetches a URL through the same guard as the fetch tool (for `@url:` mentions). */
  fetchText(
    url: string,
    options: { confirmed: boolean; signal?: AbortSignal },
  ): Promise<{ url: string; contentType: string; body: string }>;
  run(prompt: string, options?: RuntimeRunOptions): Promise<AgentResult>;
  setMode(mode: ChatMode): void;
  setSafety(safety: SafetyMode): void;
  /** Switches the model after the provider confirms it exists (`MODEL_NOT_FOUND` otherwise). */
  setModel(model: string): Promise<void>;
  status(): RuntimeStatus;
  /** Starts a new conversation. */
  clear(): void;
  close(): Promise<void>;
}

const ZERO: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

/** A conversation's title from a text: its first line, at most 80 characters. */
export function conversationTitle(text: string): string {
  const line = (text.split("\n")[0] ?? "").trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line || "conversation";
}

/**
 * Builds a running agent from a configuration. The one composition root: the CLI's chat and
 * run, the watcher and embedders call this and add only their own I/O.
 *
 * @example
 * const runtime = await createAgentRuntime(config, { warn: console.error }, {
 *   workspace: process.cwd(),
 *   modes: { chatMode: "planning", safetyMode: "safe", executionMode: "restricted" },
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
  const modes = options.modes;
  const dataDir = config.persistence.data_dir;
  const auditLog = createAuditLog({ path: path.join(dataDir, "audit.log") });
  const dbPath = config.persistence.db_path;
  const workspace = createWorkspaceContext({
    root: options.workspace,
    protectedPaths: [
      auditLog.path,
      dbPath,
      `${dbPath}-wal`,
      `${dbPath}-shm`,
      dataDir,
      ...(options.configPath ? [options.configPath, path.dirname(options.configPath)] : []),
    ],
  });
  const sandbox = createSandbox({ disabled: !config.agent.terminal.sandbox, env });
  if (sandbox.warning) io.warn(sandbox.warning);
  const standard = createStandardTools(
    workspace,
    { tools: config.agent.tools, terminal: config.agent.terminal, fetch: config.agent.fetch },
    {
      auditLog,
      sandbox,
      warn: (message) => io.warn(message),
      warnedAtStart: sandbox.warning !== undefined,
    },
  );
  const tools: Tool[] = [...standard.tools, ...(options.extraTools ?? [])];
  for (const entry of config.agent.tools.packages) {
    tools.push(
      ...(await loadToolPackage(entry.name, {
        context: { root: workspace.root, options: entry.options ?? {} },
      })),
    );
  }
  const provider =
    options.provider ??
    createProvider(config.provider, {
      env,
      warn: (message) => io.warn(message),
      maxContextTokens: config.agent.conversation.max_tokens,
      dataDir,
    });
  const instructions = await loadProjectInstructions(workspace.root);
  const systemPrompt = createSystemPrompt({
    workspace: workspace.root,
    toolNames: tools.map((tool) => tool.name),
    ...(instructions ? { projectInstructions: instructions.text } : {}),
  });

  const history: History | undefined =
    options.history !== false && config.persistence.enabled
      ? openRuntimeHistory(dbPath)
      : undefined;
  let model = provider.defaultModel;
  const historyOptions = options.history === false ? undefined : options.history;
  let resumed: Message[] = [];
  let totals: Usage = ZERO;
  let resumeId: string | undefined;
  if (historyOptions?.resume !== undefined) {
    const previous = history?.getConversation(historyOptions.resume);
    if (!previous) {
      history?.close();
      throw new XzatomaError(
        history ? "CONVERSATION_NOT_FOUND" : "HISTORY_UNAVAILABLE",
        history
          ? `No stored conversation '${historyOptions.resume}'.`
          : "History is turned off (persistence.enabled is false), so nothing can be resumed.",
        { fields: { conversationId: historyOptions.resume } },
      );
    }
    resumeId = previous.id;
    totals = previous.usage;
    resumed = previous.messages
      .filter((stored) => stored.message.role !== "system")
      .map((stored) => stored.message as Message);
  }
  const recorder = history
    ? createHistoryRecorder(history, {
        title: historyOptions?.title ?? conversationTitle,
        ...(resumeId ? { resumeId } : {}),
        describe: () => ({ provider: provider.name, model }),
        entries: () => agent.conversation.entries(),
      })
    : undefined;

  const approve = createApprovalHandler(modes, io.ask);
  const audit = createAuditSink(auditLog, workspace.root);

  const build = (messages: readonly Message[]) => {
    const fromConfig = agentOptionsFromConfig(config.agent, provider.contextWindow(model));
    const registry = createToolRegistry({ maxOutputBytes: config.agent.tools.max_output_size });
    for (const tool of tools)
      if (isToolAvailable(modes.chatMode, tool.access)) registry.register(tool);
    return new Agent({
      ...fromConfig,
      model: provider.languageModel(model),
      tools: registry,
      systemPrompt,
      approve,
      audit,
      history: messages,
      limits: { ...fromConfig.limits, ...options.limits },
    });
  };
  let agent = build(resumed);

  return {
    provider,
    workspace,
    modes,
    config,
    get model() {
      return model;
    },
    get conversationId() {
      return recorder?.conversationId;
    },
    get messages() {
      return agent.messages;
    },
    get agent() {
      return agent;
    },
    async fetchText(url, fetchOptions) {
      const response = await standard.fetcher.fetch(url, { confirmed: fetchOptions.confirmed });
      return { url: response.url, contentType: response.contentType, body: response.body };
    },
    async run(prompt, runOptions = {}) {
      const result = await agent.run(prompt, {
        ...(runOptions.signal ? { signal: runOptions.signal } : {}),
        onEvent: (event) => {
          recorder?.onEvent(event);
          io.render?.(event);
          runOptions.onEvent?.(event);
        },
      });
      totals = addUsage(totals, result.usage);
      return result;
    },
    setMode(mode) {
      modes.chatMode = mode;
      agent = build(agent.messages);
    },
    setSafety(safety) {
      modes.safetyMode = safety;
    },
    async setModel(name) {
      await provider.checkModel(name);
      model = name;
      agent = build(agent.messages);
    },
    status() {
      return {
        mode: modes.chatMode,
        safety: modes.safetyMode,
        execution: modes.executionMode,
        provider: provider.name,
        model,
        workspace: workspace.root,
        tools: agent.tools.names(),
        messages: agent.messages.length,
        usage: totals,
      };
    },
    clear() {
      totals = ZERO;
      agent = build([]);
      recorder?.clear();
    },
    async close() {
      history?.close();
      await standard.close();
    },
  };
}
