/**
 * The shapes this package stores, written out structurally so the package needs no
 * runtime import: they mirror `Message` of `@xzatoma/conversation` and `Usage` and
 * `StopReason` of `@xzatoma/core`, and values of those types are assignable to these.
 */

/** A tool call the assistant asked for (mirrors `ToolCall` of `@xzatoma/conversation`). */
export interface StoredToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** A conversation message as stored (mirrors `Message` of `@xzatoma/conversation`). */
export type HistoryMessage =
  | { readonly role: "system"; readonly content: string }
  | { readonly role: "user"; readonly content: string }
  | {
      readonly role: "assistant";
      readonly content: string;
      readonly toolCalls: readonly StoredToolCall[];
    }
  | {
      readonly role: "tool";
      readonly toolCallId: string;
      readonly toolName: string;
      readonly content: string;
      readonly isError: boolean;
    };

/** The role of a {@link HistoryMessage}. */
export type MessageRole = HistoryMessage["role"];

/** The roles, in the order the schema lists them. */
export const MESSAGE_ROLES = [
  "system",
  "user",
  "assistant",
  "tool",
] as const satisfies readonly MessageRole[];

/** Token totals (mirrors `Usage` of `@xzatoma/core`). */
export interface UsageTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

/**
 * Where a conversation stands.
 * - `running`: turns are still being written (or the process died; see the README).
 * - `completed`: the run ended with a final answer.
 * - `failed`: the model or a limit ended the run with an error.
 * - `stopped`: a limit stopped the run (the stop reason says which).
 * - `interrupted`: the user or a signal aborted it.
 */
export type ConversationStatus = "running" | "completed" | "failed" | "stopped" | "interrupted";

/** Every {@link ConversationStatus}. */
export const CONVERSATION_STATUSES = [
  "running",
  "completed",
  "failed",
  "stopped",
  "interrupted",
] as const satisfies readonly ConversationStatus[];
