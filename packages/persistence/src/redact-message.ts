import type { HistoryMessage } from "./model.js";

/**
 * `message` with `redact` applied to every text a secret could hide in: the content,
 * and every string inside a tool call's input (a command line, a URL, a file's text).
 * Ids and tool names are left alone: they come from the provider and the registry.
 */
export function redactMessage(
  message: HistoryMessage,
  redact: (text: string) => string,
): HistoryMessage {
  if (message.role !== "assistant") return { ...message, content: redact(message.content) };
  return {
    ...message,
    content: redact(message.content),
    toolCalls: message.toolCalls.map((call) => ({
      ...call,
      input: redactStrings(call.input, redact),
    })),
  };
}

function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item: unknown) => redactStrings(item, redact));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact)]),
    );
  }
  return value;
}
