import { mkdirSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Message } from "@xzatoma/conversation";
import {
  Agent,
  createToolRegistry,
  RunStop,
  type RunTelemetry,
  type RunTelemetrySource,
  type AgentEvent,
  type AgentLimits,
  type AgentResult,
  type AgentRunOptions,
  type Tool,
  type Usage,
} from "@xzatoma/core";
import { createMcpManager, type McpManager, type McpServerConfig } from "@xzatoma/mcp";
import { createHistoryRecorder, type History } from "@xzatoma/persistence";
import { createCredentialStore, createProvider, type Provider } from "@xzatoma/providers";
import {
  createApprovalHandler,
  createAuditLog,
  createSandbox,
  isToolAvailable,
  redactSecrets,
  type ChatMode,
  type ApprovalPolicy,
} from "@xzatoma/safety";
import {
  createStandardTools,
  createWorkspaceContext,
  type FileAccess,
  type WorkspaceContext,
} from "@xzatoma/tools";
import { XzatomaError } from "@xzatoma/errors";
import { createAuditSink } from "./audit-sink.js";
import { agentOptionsForWindow } from "./context-budget.js";
import { mcpWorkingDirectory } from "./mcp/mcp-working-directory.js";
import { mcpServerEnvironment } from "./mcp/mcp-server-environment.js";
import type { RuntimeConfig } from "./config/config-schema.js";
import { connectUnlessAborted } from "./mcp/connect-unless-aborted.js";
import { createToolSearch, type ToolCosts } from "./mcp/tool-search.js";
import { createMcpSecretStore } from "./mcp/mcp-secret-store.js";
import { openRuntimeHistory } from "./open-history.js";
import { loadProjectInstructions } from "./project-instructions.js";
import type { RuntimeIO } from "./runtime-io.js";
import {
  createRuntimeEvents,
  type RuntimeListener,
  type SubscribeOptions,
  type Unsubscribe,
} from "./runtime-events.js";
import { bwrapPathOf } from "./sandbox-binary.js";
import type { SessionModes } from "./session-modes.js";
import { createQuota } from "./subagents/quota.js";
import type { QuotaConfig } from "./subagents/subagent-config.js";
import {
  createSubagentTools,
  SUBAGENT_TOOL_NAMES,
  type ChildInfo,
  type SubagentScope,
} from "./subagents/subagent-tools.js";
import type { CustomCommand } from "./custom-commands/command-file.js";
import { discoverCommands } from "./custom-commands/discover-commands.js";
import { expandCommand, parseInvocation } from "./custom-commands/expand-command.js";
import { fileUnchanged } from "./skills/file-unchanged.js";
import { activateSkill, mentionedSkills } from "./skills/skill-activation.js";
import type { Skill } from "./skills/skill-file.js";
import { skillCatalog } from "./skills/skill-catalog.js";
import { createSkillTool } from "./skills/skill-tool.js";
import { loadSessionSkills } from "./skills/session-skills.js";
import { createSystemPrompt } from "./system-prompt.js";
import { checkTemplateWorkspace, type RuntimeTemplate } from "./runtime-template.js";
import { loadConfiguredToolPackages } from "./tool-packages.js";
import { narrowLimits } from "./narrow-limits.js";
import { pinnedOf } from "./pinned-history.js";
import { createTurnCheckpoints } from "./turn-checkpoints.js";
import { NO_HOOKS } from "./hooks/hooks-config.js";
import {
  createSessionHooks,
  runUntilStopHooksAgree,
  withPromptContext,
} from "./hooks/session-hooks.js";
import { withHooks } from "./hooks/with-hooks.js";

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
  /**
   * Limits this runtime's runs ask for (a plan's `max_iterations`): each one narrows the
   * configured limit, never raises it (the smaller of the two applies).
   */
  readonly limits?: Partial<AgentLimits>;
  /** Tools added to the configured ones (a plan's progress tool). */
  readonly extraTools?: readonly Tool[];
  /**
   * History recording: `false` turns it off for this runtime even when the configuration
   * enables it. `resume` continues a stored conversation: an id, a unique prefix, or
   * `{ latest: true }` for the newest one that is not a subagent's. `store`
   * is a history database the caller already opened and keeps open (a service running many
   * runtimes one after another); without it the runtime opens its own and closes it.
   */
  readonly history?:
    | false
    | {
        readonly resume?: string | { readonly latest: true };
        readonly title?: (firstMessage: string) => string;
        readonly store?: History;
      };
  /** An already created provider (tests, embedders with their own model). */
  readonly provider?: Provider;
  /**
   * Offer `subagent` and `parallel_subagent`. Default `agent.subagent.enabled`; chat passes
   * true. Children get a subset of this runtime's tools and its approvals.
   */
  readonly subagents?: boolean;
  /**
   * Receives each subagent's events as it runs.
   *
   * @deprecated Use `runtime.subscribe(listener, { subagents: true })`: the listener receives
   * each subagent's events with the child as its second argument.
   */
  readonly observeSubagent?: (child: ChildInfo) => ((event: AgentEvent) => void) | undefined;
  /**
   * OpenTelemetry's tracer and meter with `createRunTelemetry` of `@xzatoma/otel` (what its
   * `startSdk` resolves with, when telemetry is on): each run and each
   * subagent's run become spans, with metrics. Absent: nothing is recorded. `parentContext`
   * makes each run's span a child of that context's span (the watcher's span for the event
   * that started the run); default none, each run starts a trace.
   */
  readonly telemetry?: RunTelemetrySource;
  /**
   * Where read_file, write_file and edit_file read and write text instead of the disk (an
   * editor's buffers over ACP). The path guard still checks every path first.
   */
  readonly fileAccess?: FileAccess;
  /**
   * The home directory whose `.xzatoma/skills` and `.agents/skills` hold the person's own
   * skills and `.xzatoma/commands` their custom commands. Default `os.homedir()`. `false`
   * turns skills and custom commands off for this runtime.
   */
  readonly skills?: false | { readonly homeDir?: string };
  /**
   * MCP servers a client adds for this session (the servers an editor sends in ACP's
   * `session/new`), under the configured servers' rules: never started from the workspace,
   * the same environment, every tool call a person's yes (a client cannot trust a tool).
   * Their values are taken literally (no `${NAME}` is replaced); a configured server of the
   * same name wins.
   */
  readonly clientMcpServers?: Readonly<Record<string, McpServerConfig>>;
  /**
   * The sandbox, project instructions, skills and custom commands read once for a service
   * that builds many runtimes for one workspace (see `prepareRuntimeTemplate`); its warnings
   * were given when it was read. Everything with state is still built for this runtime.
   */
  readonly template?: RuntimeTemplate;
}

/** The session state a front end shows (`/status`). */
export interface RuntimeStatus {
  readonly mode: ChatMode;
  /** When a person is asked: see `ApprovalPolicy` in `@xzatoma/safety`. */
  readonly approvalPolicy: ApprovalPolicy;
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
  /**
   * Receives this run's events, after the runtime's subscribers.
   *
   * @deprecated Use `runtime.subscribe(listener)` and call the function it returns once the
   * run is over.
   */
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
  /** The configured MCP servers (`mcp.servers`); undefined when none is configured. */
  readonly mcp: McpManager | undefined;
  /** The skills the model is offered: the user's, and the project's a person trusted. */
  readonly skills: readonly Skill[];
  /** The custom commands `run` expands (`/name args`): the user's, and trusted project ones. */
  readonly customCommands: readonly CustomCommand[];
  /** Fetches a URL through the same guard as the fetch tool (for `@url:` mentions). */
  fetchText(
    url: string,
    options: { confirmed: boolean; signal?: AbortSignal },
  ): Promise<{ url: string; contentType: string; body: string }>;
  run(prompt: string, options?: RuntimeRunOptions): Promise<AgentResult>;
  /**
   * Hands `listener` every event of every run from now on, in order, after the history
   * recorder and telemetry have seen it; subscribers are called in the order they subscribed.
   * With `{ subagents: true }` it also receives each subagent's events, with the child as the
   * second argument. Returns the function that ends the subscription.
   *
   * @example
   * const unsubscribe = runtime.subscribe((event) => {
   *   if (event.type === "text-delta") process.stdout.write(event.delta);
   * });
   * await runtime.run("Summarise README.md");
   * unsubscribe();
   */
  subscribe(listener: RuntimeListener, options?: SubscribeOptions): Unsubscribe;
  setMode(mode: ChatMode): void;
  /** Changes when a person is asked, from the next call on. */
  setApprovalPolicy(policy: ApprovalPolicy): void;
  /** Switches the model after the provider confirms it exists (`MODEL_NOT_FOUND` otherwise). */
  setModel(model: string): Promise<void>;
  status(): RuntimeStatus;
  /** What the tool definitions sent with each request cost, MCP tools deferred by tool search apart (`/context`). */
  toolCosts(): ToolCosts | undefined;
  /** Starts a new conversation. */
  clear(): void;
  /**
   * Continues the stored conversation `idOrPrefix` in place of the current one (a fork a
   * rewind or `/fork` made): its messages, usage and turn numbering. The current
   * conversation stays in history as it is. `CONVERSATION_NOT_FOUND` when there is none.
   */
  resume(idOrPrefix: string): void;
  /**
   * Summarises what the model no longer sees (`/context summary`), after the `PreCompact`
   * hooks (trigger `manual`, `instructions` as their `custom_instructions`).
   */
  compact(options?: {
    signal?: AbortSignal;
    instructions?: string;
    /** `/compact`: first prune everything before this turn that may go; `instructions` is the focus. */
    everything?: boolean;
  }): Promise<string | undefined>;
  close(): Promise<void>;
}

/**
 * The tree's quota: `agent.quota`, with the deprecated older names (`agent.subagent.max_executions`,
 * `max_total_tokens`, `max_total_time`) still winning when set; `loadConfig` warns for each.
 */
function quotaOf(config: RuntimeConfig): QuotaConfig {
  const { quota, subagent } = config.agent;
  return {
    max_executions: subagent.max_executions ?? quota.max_executions,
    max_total_tokens: subagent.max_total_tokens ?? quota.max_total_tokens,
    max_total_tool_calls: quota.max_total_tool_calls,
    max_total_time_seconds: subagent.max_total_time ?? quota.max_total_time_seconds,
  };
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
  const modes = options.modes;
  const template = options.template;
  if (template) checkTemplateWorkspace(template, options.workspace);
  const dataDir = config.persistence.data_dir;
  const auditLog = createAuditLog({ path: path.join(dataDir, "audit.log") });
  const dbPath = config.persistence.db_path;
  // What each turn's changes replace, for `xzatoma rewind` (recorded once history is on).
  const checkpoints = createTurnCheckpoints(dataDir, {
    // Looked up only when the cap is passed; `history` is opened below.
    exists: () => (history ? (id) => history.getConversation(id) !== undefined : undefined),
  });
  const workspace = createWorkspaceContext({
    changes: checkpoints.changes,
    root: options.workspace,
    // Nobody to ask: a workspace that is or holds $HOME is refused.
    unattended: modes.approvalPolicy === "never",
    protectedPaths: [
      auditLog.path,
      dbPath,
      `${dbPath}-wal`,
      `${dbPath}-shm`,
      dataDir,
      ...(options.configPath ? configProtection(options.configPath, options.workspace) : []),
    ],
    ...(options.fileAccess ? { files: options.fileAccess } : {}),
  });
  const sandbox =
    template?.sandbox ??
    createSandbox({
      disabled: !config.agent.terminal.sandbox,
      env,
      ...bwrapPathOf(env),
    });
  if (sandbox.warning && !template) io.warn(sandbox.warning);
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
  // Never resolved from the workspace: a package there is the model's (or a clone's) code.
  tools.push(
    ...(await loadConfiguredToolPackages(
      config.agent.tools.packages,
      workspace.root,
      options.configPath,
    )),
  );
  const provider =
    options.provider ??
    createProvider(config.provider, {
      env,
      warn: (message) => io.warn(message),
      maxContextTokens: config.agent.conversation.max_tokens,
      dataDir,
      // A local model file is never loaded from the workspace.
      workspace: workspace.root,
    });
  const subagentsOn = options.subagents ?? config.agent.subagent.enabled;
  // The configured servers, and those a client added for this session (a configured name wins).
  const clientServers = Object.fromEntries(
    Object.entries(options.clientMcpServers ?? {}).filter(
      ([name]) => !Object.hasOwn(config.mcp.servers, name),
    ),
  );
  const mcpServers = { ...clientServers, ...config.mcp.servers };
  // MCP servers connect when the first run starts (the model needs their tools in its first
  // request), or here for `connect: start`; their tools are added to every mode's registry
  // that allows write tools, so mode switches keep them.
  const mcp: McpManager | undefined =
    Object.keys(mcpServers).length > 0
      ? createMcpManager({
          config: { ...config.mcp, servers: mcpServers },
          literalServers: Object.keys(clientServers),
          // Never the workspace: a server's launcher would run files the model wrote there.
          cwd: mcpWorkingDirectory(dataDir),
          workspace: workspace.root,
          env,
          // Proxies and CA bundles as the user's shell has them; never a secret.
          serverEnv: mcpServerEnvironment(env),
          warn: (message) => io.warn(message),
          oauth: {
            store: createMcpSecretStore(createCredentialStore({ env }), (message) =>
              io.warn(message),
            ),
            // Only where a person is there to open the URL (chat, an editor); `run` and the
            // watcher use a sign-in stored before, or fail saying how to sign in.
            ...(io.ask
              ? {
                  authorize: (server: string, url: URL) =>
                    io.warn(
                      `The MCP server '${server}' needs a sign-in: open ${url.href} in a browser (XZatoma waits up to 5 minutes).`,
                    ),
                }
              : {}),
          },
          reservedNames: [...tools.map((tool) => tool.name), ...SUBAGENT_TOOL_NAMES],
          // What a server returns may be a secret: a later fetch to a host the user has not
          // allowed then needs a person's yes, as after a command that needed one.
          exposure: workspace.exposure,
        })
      : undefined;
  let mcpTools: readonly Tool[] = [];
  // What the agent keeps verbatim by request (a prompt naming a skill), carried into a rebuilt one.
  let pinnedMessages: ReadonlySet<Message> = new Set();
  // Past their budget, the MCP tools wait behind `tool_search` (see mcp/tool-search.ts).
  const toolSearch = createToolSearch(config.mcp, () => mcp?.servers() ?? []);
  const childProviderType = config.agent.subagent.provider;
  const childProvider =
    subagentsOn && childProviderType !== undefined && childProviderType !== provider.name
      ? createProvider(
          { ...config.provider, type: childProviderType },
          {
            env,
            warn: (message) => io.warn(message),
            maxContextTokens: config.agent.conversation.max_tokens,
            dataDir,
            workspace: workspace.root,
          },
        )
      : undefined;
  const instructions = template
    ? template.instructions
    : await loadProjectInstructions(workspace.root);
  // Skills are text read into the conversation, never run; a project's only once trusted.
  const skills =
    options.skills === false
      ? undefined
      : template
        ? template.skills
        : loadSessionSkills({
            workspace: workspace.root,
            homeDir: options.skills?.homeDir ?? os.homedir(),
            dataDir,
          });
  for (const problem of template ? [] : (skills?.problems ?? [])) {
    io.warn(`skill ignored: ${problem.file}: ${problem.field} ${problem.message}`);
  }
  for (const skill of template ? [] : (skills?.untrusted ?? [])) {
    io.warn(
      `project skill '${skill.name}' is not offered: no person has trusted this content of ${skill.file}`,
    );
  }
  const offeredSkills = skills?.offered ?? [];
  const commands =
    options.skills === false
      ? undefined
      : template
        ? template.commands
        : discoverCommands({
            workspace: workspace.root,
            homeDir: options.skills?.homeDir ?? os.homedir(),
            dataDir,
          });
  for (const problem of template ? [] : (commands?.problems ?? [])) {
    io.warn(`command ignored: ${problem.file}: ${problem.field} ${problem.message}`);
  }
  if (offeredSkills.length > 0) tools.push(createSkillTool(offeredSkills));
  const catalog = skillCatalog(offeredSkills);
  const baseSystemPrompt =
    createSystemPrompt({
      workspace: workspace.root,
      toolNames: [...tools.map((tool) => tool.name), ...(subagentsOn ? SUBAGENT_TOOL_NAMES : [])],
      ...(instructions ? { projectInstructions: instructions.text } : {}),
    }) + (catalog ? `\n\n${catalog}` : "");

  const shared = options.history === false ? undefined : options.history?.store;
  const history: History | undefined =
    options.history !== false && config.persistence.enabled
      ? (shared ?? openRuntimeHistory(dbPath))
      : undefined;
  const closeHistory = () => {
    if (history !== shared) history?.close();
  };
  let model = provider.defaultModel;
  const historyOptions = options.history === false ? undefined : options.history;
  let resumed: Message[] = [];
  let totals: Usage = ZERO;
  let resumeId: string | undefined;
  if (historyOptions?.resume !== undefined) {
    const wanted = historyOptions.resume;
    const id =
      typeof wanted === "string"
        ? wanted
        : history?.listConversations({ parentId: null, limit: 1 }).items[0]?.id;
    const previous = id === undefined ? undefined : history?.getConversation(id);
    if (!previous) {
      closeHistory();
      throw new XzatomaError(
        history ? "CONVERSATION_NOT_FOUND" : "HISTORY_UNAVAILABLE",
        !history
          ? "History is turned off (persistence.enabled is false), so nothing can be resumed."
          : id === undefined
            ? "There is no stored conversation to continue yet."
            : `No stored conversation '${id}'.`,
        { fields: { conversationId: id ?? "latest" } },
      );
    }
    resumeId = previous.id;
    totals = previous.usage;
    resumed = storedMessages(previous.messages);
    pinnedMessages = pinnedOf(previous.messages);
  }
  const makeRecorder = (continued: string | undefined) =>
    history
      ? createHistoryRecorder(history, {
          title: historyOptions?.title ?? conversationTitle,
          ...(continued ? { resumeId: continued } : {}),
          describe: () => ({ provider: provider.name, model }),
          entries: () => agent.conversation.entries(),
        })
      : undefined;
  let recorder = makeRecorder(resumeId);
  const attachCheckpoints = (messages: readonly Message[]) => {
    const current = recorder;
    if (!current) return;
    checkpoints.attach({
      workspace: workspace.root,
      // Made at a turn's start if need be, so a turn's records always have a conversation.
      conversationId: () => current.conversationId ?? current.store(),
      firstTurn: messages.filter((message) => message.role === "assistant").length + 1,
    });
  };
  attachCheckpoints(resumed);

  // Hooks run in the data directory: the workspace's files are the model's to write.
  const hooks = config.hooks ?? NO_HOOKS;
  const sessionHooks = createSessionHooks({
    hooks,
    cwd: dataDir,
    workspace: workspace.root,
    env,
    sessionId: () => recorder?.conversationId,
    permissionMode: () => modes.approvalPolicy,
    warn: (message) => io.warn(message),
  });
  if (Object.values(hooks).some((entries) => entries.length > 0)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  }
  const ask = io.ask;
  const approve = createApprovalHandler(
    modes,
    ask
      ? (request, outcome) => {
          // `Notification` hooks hear that a person is asked (`permission_prompt`).
          sessionHooks.notify(
            "permission_prompt",
            `XZatoma needs your permission to use ${request.toolName}`,
          );
          return ask(request, outcome);
        }
      : undefined,
  );
  const audit = createAuditSink(auditLog, workspace.root);

  // Per top-level run: the tree's shared quota, where its events go, and its current turn.
  const subagentConfig = config.agent.subagent;
  let quota = createQuota(quotaOf(config));
  let emit: (event: AgentEvent) => void = () => undefined;
  // Every front end's listeners; `io.render` (deprecated) is the first subscriber.
  const events = createRuntimeEvents();
  const ioRender = io.render;
  if (ioRender) events.subscribe((event) => ioRender(event));
  let turn = 0;
  let runTelemetry: RunTelemetry | undefined;
  const children = new Set<Promise<unknown>>();
  const subagentScope: SubagentScope | undefined = subagentsOn
    ? {
        config: subagentConfig,
        agentConfig: config.agent,
        provider: childProvider ?? provider,
        model: () => subagentConfig.model ?? (childProvider ? childProvider.defaultModel : model),
        workspace: workspace.root,
        maxOutputBytes: config.agent.tools.max_output_size,
        approve,
        audit,
        quota: () => quota,
        emit: (event) => emit(event),
        turn: () => turn,
        track: (running) => {
          children.add(running);
          const done = () => children.delete(running);
          void running.then(done, done);
        },
        ...(history ? { history } : {}),
        hooks: sessionHooks,
        refused: (event) => runTelemetry?.onEvent(event),
        observe: (child) => {
          const childTelemetry = runTelemetry?.subagent(child);
          const observer = options.observeSubagent?.(child);
          return (event) => {
            childTelemetry?.onEvent(event);
            observer?.(event);
            events.emitSubagent(event, child);
          };
        },
      }
    : undefined;

  // What `SessionStart` hooks add to the instructions, for the session they started.
  let sessionContext: readonly string[] = [];
  const systemPrompt = () => withPromptContext(baseSystemPrompt, "SessionStart", sessionContext);
  // The window the conversation is planned for: what the provider knows now, then what it
  // says before the first run and after a model switch.
  let window = provider.contextWindow(model);
  const build = (messages: readonly Message[]) => {
    const registry = createToolRegistry({ maxOutputBytes: config.agent.tools.max_output_size });
    // Hooks wrap each tool, for this agent and the subagents it starts alike.
    const available = [...tools, ...mcpTools]
      .filter((tool) => isToolAvailable(modes.chatMode, tool.access))
      .map((tool) => withHooks(tool, sessionHooks.runner));
    for (const tool of available) registry.register(tool);
    if (subagentScope) {
      // Rebuilt with every mode switch, so delegation survives it with the new mode's tools.
      const level = { depth: 0, tools: available, conversationId: () => recorder?.store() };
      for (const tool of createSubagentTools(subagentScope, level)) registry.register(tool);
    }
    const offered = toolSearch.offer(
      registry,
      new Set(mcpTools.map((tool) => tool.name)),
      window,
      (tool) => withHooks(tool, sessionHooks.runner),
    );
    const fromConfig = agentOptionsForWindow(config.agent, window, offered);
    return new Agent({
      ...fromConfig,
      model: provider.languageModel(model),
      tools: offered,
      systemPrompt: systemPrompt(),
      approve,
      audit,
      history: messages,
      pinnedHistory: pinnedMessages,
      // What a run asks for (a plan's, an event's) only narrows what is configured.
      limits: narrowLimits(fromConfig.limits, options.limits),
    });
  };
  if (mcp) mcpTools = await mcp.connect("start");
  sessionContext = await sessionHooks.start(resumeId ? "resume" : "startup", model);
  // A cleared session's `SessionStart` (source `clear`), awaited by the next run.
  let restarted: Promise<void> | undefined;
  let agent = build(resumed);
  const fitWindow = async () => {
    const resolved = await provider.resolveContextWindow(model);
    if (resolved === window) return;
    window = resolved;
    agent = build(agent.messages);
  };

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
    mcp,
    skills: offeredSkills,
    customCommands: commands?.offered ?? [],
    async fetchText(url, fetchOptions) {
      const response = await standard.fetcher.fetch(url, { confirmed: fetchOptions.confirmed });
      return { url: response.url, contentType: response.contentType, body: response.body };
    },
    subscribe: (listener, subscribeOptions) => events.subscribe(listener, subscribeOptions),
    async run(prompt, runOptions = {}) {
      if (mcp?.enabled) {
        const connected = await connectUnlessAborted(mcp, runOptions.signal);
        if (connected && connected.length !== mcpTools.length) {
          mcpTools = connected;
          agent = build(agent.messages);
        }
      }
      await fitWindow();
      quota.close();
      quota = createQuota(quotaOf(config));
      turn = 0;
      const telemetry = options.telemetry
        ? options.telemetry.createRunTelemetry({
            ...options.telemetry,
            provider: provider.name,
            model,
            redact: (text) => redactSecrets(text),
          })
        : undefined;
      runTelemetry = telemetry;
      const controller = new AbortController();
      const outer = runOptions.signal;
      const onOuterAbort = () => controller.abort(outer?.reason);
      if (outer?.aborted) onOuterAbort();
      else outer?.addEventListener("abort", onOuterAbort, { once: true });
      // The tree's quota binds a run that may delegate, its top-level agent included: once
      // any agent of the tree exceeds a budget (or the tree's time is up) the whole run stops.
      const treeQuota = quota;
      const onQuota = () => controller.abort(new RunStop("quota"));
      if (subagentScope) treeQuota.signal.addEventListener("abort", onQuota, { once: true });
      let finished: Extract<AgentEvent, { type: "finished" }> | undefined;
      emit = (event) => {
        telemetry?.onEvent(event);
        recorder?.onEvent(event);
        events.emit(event);
      };
      // The deprecated per-run listener: a subscription for this run, after the others.
      const runListener = runOptions.onEvent;
      const endRunListener = runListener
        ? events.subscribe((event) => runListener(event))
        : undefined;
      try {
        if (restarted) {
          await restarted;
          restarted = undefined;
          agent = build(agent.messages);
        }
        // `UserPromptSubmit` hooks see the prompt as typed: they may refuse it or add context.
        const submitted = await sessionHooks.promptSubmitted(prompt);
        if (submitted.blocked !== undefined) {
          return {
            stopReason: "error",
            text: "",
            turns: 0,
            toolCalls: 0,
            usage: ZERO,
            durationMs: 0,
            error: {
              code: "INVALID_ARGUMENT",
              message: `A UserPromptSubmit hook refused the prompt: ${submitted.blocked}`,
            },
          };
        }
        // `/name args` runs a custom command: its prompt, with the arguments put in.
        const invocation = parseInvocation(prompt);
        const command = invocation
          ? commands?.commands.find((candidate) => candidate.name === invocation.name)
          : undefined;
        if (invocation && command) {
          if (!commands?.offered.includes(command)) {
            io.warn(
              `project command '/${command.name}' was not expanded: no person has trusted this content of ${command.file}`,
            );
          } else if (!fileUnchanged(command)) {
            io.warn(
              `the command '/${command.name}' changed since the session started (${command.file}) and was not expanded`,
            );
          } else {
            prompt = expandCommand(command, invocation.args);
            if (command.model !== undefined && command.model !== model) {
              io.warn(
                `the command '/${command.name}' names the model '${command.model}'; it runs with the session's model '${model}' (switch with --model or /model)`,
              );
            }
          }
        }
        // `/skill-name args` (a skill offered as a command, as over ACP) loads that skill.
        const invoked =
          invocation && !command
            ? offeredSkills.find((skill) => skill.name === invocation.name)
            : undefined;
        if (invocation && invoked) prompt = invocation.args || `Use the skill '${invoked.name}'.`;
        // A skill the person names (`$name`) is loaded with the prompt.
        const wanted = mentionedSkills(prompt, offeredSkills).filter((skill) => skill !== invoked);
        const named = [...(invoked ? [invoked] : []), ...wanted].flatMap((skill) => {
          try {
            return [activateSkill(skill)];
          } catch (error) {
            io.warn((error as Error).message);
            return [];
          }
        });
        const text = named.length === 0 ? prompt : `${named.join("\n\n")}\n\n${prompt}`;
        const runOptions: AgentRunOptions = {
          signal: controller.signal,
          // A skill the person named stays in the model's view, as the instructions do.
          pinInput: named.length > 0,
          onEvent: (event) => {
            if (event.type === "context-pruned") void sessionHooks.preCompact("auto");
            if (event.type === "turn-started") {
              turn = event.turn;
              checkpoints.startTurn();
            }
            // A run without the delegation tools has the agent's own limits alone.
            if (subagentScope && event.type === "usage") treeQuota.spend(event.usage);
            if (subagentScope && event.type === "tool-call-requested") treeQuota.call();
            // Held until the children have ended, to carry the whole tree's tokens.
            if (event.type === "finished" && subagentScope) finished = event;
            else emit(event);
          },
        };
        // `Stop` hooks may send the agent on, with their reason as the next message.
        const result = await runUntilStopHooksAgree(
          sessionHooks,
          withPromptContext(text, "UserPromptSubmit", submitted.context),
          (input) => agent.run(input, runOptions),
        );
        await sessionHooks.settle();
        // A run that ended early (cancelled, a limit) has told its children to stop through
        // their tool calls' signals; each stores how it ended before the run is reported over.
        if (children.size > 0) await Promise.allSettled([...children]);
        const exceeded = result.stopReason === "quota" ? treeQuota.exceeded : undefined;
        const tree = subagentScope
          ? { treeUsage: treeQuota.usage, ...(exceeded ? { quota: exceeded } : {}) }
          : {};
        if (finished) emit({ ...finished, ...tree });
        totals = addUsage(totals, result.usage);
        pinnedMessages = agent.pinnedMessages;
        return { ...result, ...tree };
      } finally {
        treeQuota.signal.removeEventListener("abort", onQuota);
        treeQuota.close();
        outer?.removeEventListener("abort", onOuterAbort);
        emit = () => undefined;
        endRunListener?.();
        checkpoints.endRun();
      }
    },
    setMode(mode) {
      modes.chatMode = mode;
      agent = build(agent.messages);
    },
    setApprovalPolicy(policy) {
      modes.approvalPolicy = policy;
    },
    async setModel(name) {
      await provider.checkModel(name);
      model = name;
      window = await provider.resolveContextWindow(name);
      agent = build(agent.messages);
    },
    status() {
      return {
        mode: modes.chatMode,
        approvalPolicy: modes.approvalPolicy,
        provider: provider.name,
        model,
        workspace: workspace.root,
        tools: agent.tools.names(),
        messages: agent.messages.length,
        usage: totals,
      };
    },
    toolCosts: () => toolSearch.costs(),
    clear() {
      totals = ZERO;
      toolSearch.reset();
      agent = build([]);
      recorder?.clear();
      checkpoints.reset();
      // For the hooks, the old session ends and a new one starts; the next run waits for them.
      restarted = sessionHooks.end("clear").then(async () => {
        sessionContext = await sessionHooks.start("clear", model);
      });
    },
    async compact(compactOptions = {}) {
      await sessionHooks.preCompact("manual", compactOptions.instructions);
      const signal = compactOptions.signal ? { signal: compactOptions.signal } : {};
      if (compactOptions.everything) {
        const focus = compactOptions.instructions?.trim();
        return (await agent.compactContext({ ...signal, ...(focus ? { focus } : {}) })).summary;
      }
      return agent.summarizeContext(signal);
    },
    resume(idOrPrefix) {
      const stored = history?.getConversation(idOrPrefix);
      if (!stored) {
        throw new XzatomaError(
          history ? "CONVERSATION_NOT_FOUND" : "HISTORY_UNAVAILABLE",
          history
            ? `No stored conversation '${idOrPrefix}'.`
            : "History is turned off (persistence.enabled is false), so nothing can be resumed.",
          { fields: { conversationId: idOrPrefix } },
        );
      }
      const messages = storedMessages(stored.messages);
      pinnedMessages = pinnedOf(stored.messages);
      // For the hooks, the old session ends and the continued one starts (as a resume); the
      // next run waits for them.
      const before = restarted;
      const ended = sessionHooks.end("other");
      totals = stored.usage;
      toolSearch.reset();
      agent = build(messages);
      recorder = makeRecorder(stored.id);
      attachCheckpoints(messages);
      restarted = (async () => {
        await before;
        await ended;
        sessionContext = await sessionHooks.start("resume", model);
      })();
    },
    async close() {
      await restarted;
      await sessionHooks.end("other");
      await sessionHooks.settle();
      checkpoints.close();
      closeHistory();
      await Promise.all([standard.close(), mcp?.close()]);
    },
  };
}

/** A stored conversation's messages as the agent takes them: no system prompt. */
function storedMessages(stored: readonly { readonly message: unknown }[]): Message[] {
  return stored
    .map((entry) => entry.message as Message)
    .filter((message) => message.role !== "system");
}

/**
 * What of the configuration file no tool may change: the file, and its directory (where a
 * sibling could be read as configuration) unless that directory is the workspace or holds
 * it. A project that keeps its `xzatoma.yaml` at its root stays writable; the file does not.
 */
function configProtection(configPath: string, workspace: string): string[] {
  const file = realOrResolved(configPath);
  const directory = path.dirname(file);
  const root = realOrResolved(workspace);
  const relative = path.relative(directory, root);
  const holdsWorkspace =
    relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
  return holdsWorkspace ? [file] : [file, directory];
}

/** The real path of `target`; for one that does not exist yet, of its deepest existing ancestor. */
function realOrResolved(target: string): string {
  const missing: string[] = [];
  let current = path.resolve(target);
  for (;;) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(target);
      missing.push(path.basename(current));
      current = parent;
    }
  }
}
