import type { StopReason } from "./agent-limits.js";
import type { QuotaExceeded } from "./quota-exceeded.js";
import type { ApprovalDecision, ApprovalRequest } from "./tool-registry.js";
import type { ToolResult } from "./tool-result.js";
import type { Usage } from "./usage.js";

/** An error as it appears in the event stream: a stable code and a message. */
export interface AgentEventError {
  readonly code: string;
  readonly message: string;
  /** The error's facts (`provider`, `url`, `model`, ...), when it has any. */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/**
 * The typed stream every observer of a run consumes: renderers, persistence, metrics,
 * JSON output. Events are plain JSON.
 */
export type AgentEvent =
  | { readonly type: "run-started"; readonly input: string; readonly tools: readonly string[] }
  | { readonly type: "turn-started"; readonly turn: number }
  | { readonly type: "text-delta"; readonly turn: number; readonly delta: string }
  | {
      readonly type: "tool-call-requested";
      readonly turn: number;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: unknown;
    }
  | ({ readonly type: "approval-requested"; readonly turn: number } & ApprovalRequest)
  | ({
      readonly type: "approval-answered";
      readonly turn: number;
      readonly toolCallId: string;
      readonly toolName: string;
    } & ApprovalDecision)
  | {
      readonly type: "tool-progress";
      readonly turn: number;
      readonly toolCallId: string;
      readonly message: string;
    }
  | {
      readonly type: "tool-result";
      readonly turn: number;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly result: ToolResult;
      readonly durationMs: number;
    }
  | { readonly type: "usage"; readonly turn: number; readonly usage: Usage; readonly totals: Usage }
  | {
      readonly type: "context-pruned";
      readonly turn: number;
      /** Messages hidden from the model (kept for history and replay). */
      readonly dropped: number;
      readonly toolCalls: number;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
    }
  | {
      readonly type: "context-status";
      readonly turn: number;
      readonly previous: "ok" | "warning" | "critical";
      readonly level: "ok" | "warning" | "critical";
      readonly tokens: number;
      readonly maxTokens: number;
    }
  | { readonly type: "error"; readonly error: AgentEventError }
  | {
      /** A subagent started on a task (any depth of the tree below this run). */
      readonly type: "subagent-started";
      readonly turn: number;
      /** The `subagent` or `parallel_subagent` call that started it. */
      readonly toolCallId: string;
      readonly label: string;
      /** 1 for a child of the top-level run, 2 for a grandchild, ... */
      readonly depth: number;
      /** The label of the subagent that started it; absent for a child of the top-level run. */
      readonly parent?: string;
    }
  | {
      readonly type: "subagent-finished";
      readonly turn: number;
      readonly toolCallId: string;
      readonly label: string;
      readonly depth: number;
      readonly parent?: string;
      readonly stopReason: StopReason;
      readonly turns: number;
      readonly usage: Usage;
      readonly durationMs: number;
      /** Why it failed, when it did not complete. */
      readonly error?: string;
    }
  | {
      readonly type: "finished";
      readonly stopReason: StopReason;
      readonly text: string;
      readonly turns: number;
      readonly toolCalls: number;
      /** The tokens of this agent's own model requests. */
      readonly usage: Usage;
      readonly durationMs: number;
      /**
       * The tokens of the whole tree: this agent's and every subagent's under it, final
       * answers included. Set by a runtime whose run may delegate.
       */
      readonly treeUsage?: Usage;
      /** Which budget of the tree was exceeded, when `stopReason` is `quota`. */
      readonly quota?: QuotaExceeded;
    };

/** The type names of {@link AgentEvent}. */
export type AgentEventType = AgentEvent["type"];
