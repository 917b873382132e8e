import type { Message } from "@xzatoma/conversation";
import type { Agent, AgentEvent, AgentResult, Usage } from "@xzatoma/core";
import type { McpManager } from "@xzatoma/mcp";
import type { Provider } from "@xzatoma/providers";
import type { ApprovalPolicy, ChatMode } from "@xzatoma/safety";
import type { WorkspaceContext } from "@xzatoma/tools";
import type { RuntimeConfig } from "../config/config-values.js";
import type { CustomCommand } from "../custom-commands/command-file.js";
import type { ToolCosts } from "../mcp/tool-search.js";
import type { RuntimeListener, SubscribeOptions, Unsubscribe } from "../runtime-events.js";
import type { SessionModes } from "../session-modes.js";
import type { Skill } from "../skills/skill-file.js";

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
