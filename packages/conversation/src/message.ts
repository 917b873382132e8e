/**
 * The conversation message model shared by the agent, persistence and renderers.
 *
 * Messages are plain JSON-serialisable objects so they can be stored, replayed and
 * sent over the wire without conversion.
 */

/** A tool call the assistant asked for. `input` is the parsed JSON the model sent. */
export interface ToolCall {
  /** Provider-assigned identifier; unique within the conversation. */
  readonly id: string;
  /** The name of the tool the model wants to run. */
  readonly name: string;
  /** The arguments the model sent, parsed from JSON (or the raw text when unparsable). */
  readonly input: unknown;
}

/** The instructions that frame the conversation. */
export interface SystemMessage {
  readonly role: "system";
  readonly content: string;
}

/** What the person (or a plan) asked. */
export interface UserMessage {
  readonly role: "user";
  readonly content: string;
}

/** What the model answered: text, tool calls, or both. */
export interface AssistantMessage {
  readonly role: "assistant";
  readonly content: string;
  readonly toolCalls: readonly ToolCall[];
}

/** The result of one tool call, as the model will read it. */
export interface ToolMessage {
  readonly role: "tool";
  readonly toolCallId: string;
  readonly toolName: string;
  /** The text the model reads (output, or `Error: ...`). */
  readonly content: string;
  /** Whether the tool call failed. */
  readonly isError: boolean;
}

/** Any message of a conversation. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** Creates a system message. */
export function systemMessage(content: string): SystemMessage {
  return { role: "system", content };
}

/** Creates a user message. */
export function userMessage(content: string): UserMessage {
  return { role: "user", content };
}

/** Creates an assistant message; `toolCalls` defaults to none. */
export function assistantMessage(
  content: string,
  toolCalls: readonly ToolCall[] = [],
): AssistantMessage {
  return { role: "assistant", content, toolCalls };
}

/** Creates the message that carries a tool's result back to the model. */
export function toolMessage(options: {
  toolCallId: string;
  toolName: string;
  content: string;
  isError: boolean;
}): ToolMessage {
  return { role: "tool", ...options };
}
