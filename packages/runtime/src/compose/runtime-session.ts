import type { Message } from "@xzatoma/conversation";
import { EMPTY_USAGE, type Agent, type Tool, type Usage } from "@xzatoma/core";
import type { HistoryRecorder } from "@xzatoma/persistence";

/** Builds the agent of a session for its current mode, model and tools, on `messages`. */
export type AgentBuilder = (session: RuntimeSession, messages: readonly Message[]) => Agent;

/**
 * What changes while a runtime lives: the model and its window, the MCP tools connected so
 * far, the conversation (its agent, usage, kept messages and recorder) and what the
 * `SessionStart` hooks added. The runtime's methods change it; the agent builder reads it.
 */
export class RuntimeSession {
  model: string;
  /** The window the conversation is planned for: the provider's figure for `model`. */
  window: number;
  mcpTools: readonly Tool[] = [];
  /** What the agent keeps verbatim by request (a prompt naming a skill), carried into a rebuilt one. */
  pinnedMessages: ReadonlySet<Message> = new Set();
  /** Tokens of every run of this conversation so far. */
  totals: Usage = EMPTY_USAGE;
  recorder: HistoryRecorder | undefined;
  /** What `SessionStart` hooks add to the instructions, for the session they started. */
  sessionContext: readonly string[] = [];
  /** A cleared or resumed session's `SessionStart`, awaited by the next run. */
  restarted: Promise<void> | undefined;
  #agent: Agent | undefined;
  #build: AgentBuilder | undefined;

  constructor(model: string, window: number) {
    this.model = model;
    this.window = window;
  }

  /** Builds the session's first agent, on `messages`, and keeps `build` for every rebuild. */
  start(build: AgentBuilder, messages: readonly Message[]): void {
    this.#build = build;
    this.#agent = build(this, messages);
  }

  /** The agent of the current mode and model. */
  get agent(): Agent {
    if (!this.#agent) throw new Error("The runtime's agent was read before it was built.");
    return this.#agent;
  }

  /** Builds the agent again (a mode, model or tool change) on `messages`, by default its own. */
  rebuild(messages: readonly Message[] = this.agent.messages): void {
    if (!this.#build) throw new Error("The runtime's agent was rebuilt before it was started.");
    this.#agent = this.#build(this, messages);
  }
}
