import { REDACTED } from "@xzatoma/redaction";
import type { HistoryMessage } from "./model.js";

/**
 * `message` with `redact` applied to every text a secret could hide in: the content of
 * every role (system, user, assistant, and tool results), and every string and number
 * inside a tool call's input (a command line, a URL, a file's text), read together with
 * its key: `{ "password": "hunter2" }` is a secret though `hunter2` alone is a word.
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
      input: redactValues(call.input, redact, undefined),
    })),
  };
}

/** Values longer than this are not read with their key: a secret is never that long. */
const MAX_KEYED_LENGTH = 1024;

function redactValues(
  value: unknown,
  redact: (text: string) => string,
  key: string | undefined,
): unknown {
  if (typeof value === "string") return redactKeyed(redact(value), redact, key);
  if (typeof value === "number") return redactKeyed(value, redact, key);
  if (Array.isArray(value)) return value.map((item: unknown) => redactValues(item, redact, key));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, redactValues(item, redact, name)]),
    );
  }
  return value;
}

/** `value` as `redact` sees it under `key`, e.g. in `{"api_key":"..."}`. */
function redactKeyed<T extends string | number>(
  value: T,
  redact: (text: string) => string,
  key: string | undefined,
): T | string {
  if (key === undefined || String(value).length > MAX_KEYED_LENGTH) return value;
  const pair = JSON.stringify({ [key]: value });
  const redacted = redact(pair);
  if (redacted === pair) return value;
  try {
    const parsed = JSON.parse(redacted) as Record<string, unknown>;
    const kept = parsed[key];
    if (typeof kept === "string" || typeof kept === "number") return kept as T | string;
  } catch {
    // The redaction replaced more than the value (the JSON no longer parses): drop it all.
  }
  return REDACTED;
}
