// The shapes the delegation tools share: what every subagent of a runtime shares, the agent
// that delegates, a child as observers see it, and how a child ended.
import type {
  AgentConfigSlice,
  AgentEvent,
  AgentResult,
  ApprovalHandler,
  SubagentRefusedEvent,
  Tool,
  ToolAuditSink,
} from "@xzatoma/core";
import type { History } from "@xzatoma/persistence";
import type { Provider } from "@xzatoma/providers";
import type { z } from "zod";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { Quota } from "./quota.js";
import type { SubagentConfig } from "./subagent-config.js";
import type { taskInput } from "./subagent-input.js";

/** What every subagent of one runtime shares. */
export interface SubagentScope {
  readonly config: SubagentConfig;
  /** The `agent` section: limits and context settings of each child. */
  readonly agentConfig: AgentConfigSlice;
  readonly provider: Provider;
  /** The children's model. */
  readonly model: () => string;
  readonly workspace: string;
  /** Bytes of one tool result a child's model sees. */
  readonly maxOutputBytes: number;
  /** The parent's approvals: a child asks (or is refused) exactly as its parent would be. */
  readonly approve: ApprovalHandler;
  readonly audit?: ToolAuditSink;
  /** The quota of the top-level run in progress. */
  readonly quota: () => Quota;
  /** The top-level run's event stream: subagent events of every depth go there. */
  readonly emit: (event: AgentEvent) => void;
  /** The top-level run's current turn, for the events. */
  readonly turn: () => number;
  /** Where children's conversations are stored; absent when history is off. */
  readonly history?: History;
  /**
   * Called with every child's run as it starts: the owner waits for them before it reports
   * the top-level run as ended (a cancelled child still stores how it ended).
   */
  readonly track: (running: Promise<unknown>) => void;
  /** Told of each call refused before a child started (telemetry's `subagent_errors_total`). */
  readonly refused?: (event: SubagentRefusedEvent) => void;
  /** The session's hooks: `SubagentStart` and `SubagentStop` run around each child. */
  readonly hooks?: Pick<SessionHooks, "configured" | "runner" | "subagentStart" | "subagentStop">;
  /** Receives each child's events (telemetry); may return a listener for them. */
  readonly observe?: (child: StartedChildInfo) => ((event: AgentEvent) => void) | undefined;
}

/** One child, as observers see it. */
export interface ChildInfo {
  readonly label: string;
  readonly depth: number;
  readonly toolCallId: string;
  readonly parent?: string;
}

/** A child as its observers see it once it starts: with the provider and model it runs on. */
export interface StartedChildInfo extends ChildInfo {
  readonly provider: string;
  readonly model: string;
}

/** The agent that holds a pair of delegation tools. */
export interface DelegatingLevel {
  /** 0 for the top-level agent. */
  readonly depth: number;
  /** Its tools without the delegation tools: what a child may be given. */
  readonly tools: readonly Tool[];
  /** Its label; absent for the top-level agent. */
  readonly label?: string;
  /** Stores its conversation now and gives its id (a child's row points at it). */
  readonly conversationId: () => string | undefined;
}

/** One task as the model gives it. */
export type Task = z.output<typeof taskInput>;

/** How one child ended, for its parent and for `parallel_subagent`'s report. */
export interface ChildOutcome {
  readonly label: string;
  readonly result?: AgentResult;
  /** Set when the child did not complete: a refusal before it started, or its stop reason. */
  readonly error?: string;
  readonly output: string;
  readonly durationMs: number;
}
