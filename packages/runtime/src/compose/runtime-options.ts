import type { AgentEvent, AgentLimits, RunTelemetrySource, Tool } from "@xzatoma/core";
import type { McpServerConfig } from "@xzatoma/mcp";
import type { History } from "@xzatoma/persistence";
import type { Provider } from "@xzatoma/providers";
import type { FileAccess } from "@xzatoma/tools";
import type { RuntimeTemplate } from "../runtime-template.js";
import type { SessionModes } from "../session-modes.js";
import type { ChildInfo } from "../subagents/subagent-tools.js";

/** Options of `createAgentRuntime`. */
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
   * Whether a conversation that changes no file still gets a checkpoint index (its turns say
   * where it worked, for `chat --continue`). Default true; the watcher, which runs a
   * conversation per event, keeps checkpoints only of events that change something.
   */
  readonly checkpointUnchanged?: boolean;
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
