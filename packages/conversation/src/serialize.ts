import { ConversationFormatError } from "./errors.js";
import {
  assistantMessage,
  systemMessage,
  toolMessage,
  userMessage,
  type Message,
  type ToolCall,
} from "./message.js";
import type { ConversationState } from "./state.js";
import type { ContextLevel } from "./status.js";
import { createSummaryStats, MAX_REQUESTS, touchFile, type SummaryRecord } from "./summary.js";

/** The format version written by `toJSON()`. */
export const SERIALIZED_CONVERSATION_VERSION = 1;

/** One message of a serialised conversation. */
export interface SerializedEntry {
  readonly message: Message;
  readonly pinned?: true;
  readonly pruned?: true;
}

/** The summary record of a serialised conversation. */
export interface SerializedSummary {
  /** Text from `replaceSummary`; the counts below then cover only what was pruned since. */
  readonly modelText?: string;
  readonly user: number;
  readonly assistant: number;
  readonly tool: number;
  readonly tools: readonly {
    readonly name: string;
    readonly calls: number;
    readonly failed: number;
  }[];
  /** Touched paths, least recent first. */
  readonly files: readonly string[];
  readonly filesOmitted: number;
  /** Paths the file-changing tools named, oldest first (absent when none). */
  readonly changed?: readonly string[];
  readonly requests: readonly string[];
  readonly firstTurn?: number;
  readonly lastTurn?: number;
}

/** A conversation as `toJSON()` writes it: plain JSON. */
export interface SerializedConversation {
  readonly version: typeof SERIALIZED_CONVERSATION_VERSION;
  /** The counter that produced the estimates; the usage below is only reused with the same one. */
  readonly tokenizer: string;
  readonly entries: readonly SerializedEntry[];
  readonly summary?: SerializedSummary;
  /** The last provider-reported usage and the estimate it was measured against. */
  readonly usage?: { readonly inputTokens: number; readonly estimate: number };
  /** The context level last reported. */
  readonly level: ContextLevel;
}

/** A validated serialised conversation, ready to load. */
export interface ParsedConversation {
  readonly tokenizer: string;
  readonly entries: readonly { message: Message; pinned: boolean; pruned: boolean }[];
  readonly summary: SummaryRecord | undefined;
  readonly usage: { inputTokens: number; estimate: number } | undefined;
  readonly level: ContextLevel;
}

/** Writes the state as JSON-safe data. */
export function serializeState(state: ConversationState): SerializedConversation {
  const entries = state.entries.map(({ message, pinned, pruned }): SerializedEntry => ({
    message,
    ...(pinned ? { pinned: true as const } : {}),
    ...(pruned ? { pruned: true as const } : {}),
  }));
  const record = state.summary?.record;
  const stats = record?.stats;
  const summary: SerializedSummary | undefined =
    record && stats
      ? {
          ...(record.modelText === undefined ? {} : { modelText: record.modelText }),
          user: stats.user,
          assistant: stats.assistant,
          tool: stats.tool,
          tools: [...stats.tools].map(([name, t]) => ({ name, calls: t.calls, failed: t.failed })),
          files: [...stats.files],
          filesOmitted: stats.filesOmitted,
          ...(stats.changed.size > 0 ? { changed: [...stats.changed] } : {}),
          requests: [...stats.requests],
          ...(stats.firstTurn === undefined ? {} : { firstTurn: stats.firstTurn }),
          ...(stats.lastTurn === undefined ? {} : { lastTurn: stats.lastTurn }),
        }
      : undefined;
  return {
    version: SERIALIZED_CONVERSATION_VERSION,
    tokenizer: state.options.tokenizer.name,
    entries,
    ...(summary ? { summary } : {}),
    ...(state.usageReported
      ? { usage: { inputTokens: state.reported, estimate: state.reportedEstimate } }
      : {}),
    level: state.level,
  };
}

type Json = Record<string, unknown>;

function object(value: unknown, field: string): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ConversationFormatError(field, "must be an object");
  return value as Json;
}

function array(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw new ConversationFormatError(field, "must be an array");
  return value;
}

function string(value: unknown, field: string): string {
  if (typeof value !== "string") throw new ConversationFormatError(field, "must be a string");
  return value;
}

function count(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)
    throw new ConversationFormatError(field, "must be a non-negative integer");
  return value;
}

function boolean(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") throw new ConversationFormatError(field, "must be a boolean");
  return value;
}

function flag(value: unknown, field: string): boolean {
  return value === undefined ? false : boolean(value, field);
}

function optional<T>(value: unknown, read: (value: unknown) => T): T | undefined {
  return value === undefined ? undefined : read(value);
}

function parseToolCall(value: unknown, field: string): ToolCall {
  const call = object(value, field);
  if (!("input" in call)) throw new ConversationFormatError(`${field}.input`, "is missing");
  return {
    id: string(call.id, `${field}.id`),
    name: string(call.name, `${field}.name`),
    input: call.input,
  };
}

function parseMessage(value: unknown, field: string): Message {
  const message = object(value, field);
  const content = string(message.content, `${field}.content`);
  switch (message.role) {
    case "system":
      return systemMessage(content);
    case "user":
      return userMessage(content);
    case "assistant":
      return assistantMessage(
        content,
        array(message.toolCalls, `${field}.toolCalls`).map((call, index) =>
          parseToolCall(call, `${field}.toolCalls[${index}]`),
        ),
      );
    case "tool":
      return toolMessage({
        toolCallId: string(message.toolCallId, `${field}.toolCallId`),
        toolName: string(message.toolName, `${field}.toolName`),
        content,
        isError: boolean(message.isError, `${field}.isError`),
      });
    default:
      throw new ConversationFormatError(`${field}.role`, "must be system, user, assistant or tool");
  }
}

function parseSummary(value: unknown, field: string): SummaryRecord {
  const json = object(value, field);
  const stats = createSummaryStats();
  stats.user = count(json.user, `${field}.user`);
  stats.assistant = count(json.assistant, `${field}.assistant`);
  stats.tool = count(json.tool, `${field}.tool`);
  array(json.tools, `${field}.tools`).forEach((tool, index) => {
    const at = `${field}.tools[${index}]`;
    const tally = object(tool, at);
    stats.tools.set(string(tally.name, `${at}.name`), {
      calls: count(tally.calls, `${at}.calls`),
      failed: count(tally.failed, `${at}.failed`),
    });
  });
  array(json.files, `${field}.files`).forEach((file, index) =>
    touchFile(stats, string(file, `${field}.files[${index}]`)),
  );
  stats.filesOmitted += count(json.filesOmitted, `${field}.filesOmitted`);
  if (json.changed !== undefined)
    array(json.changed, `${field}.changed`).forEach((file, index) =>
      stats.changed.add(string(file, `${field}.changed[${index}]`)),
    );
  const requests = array(json.requests, `${field}.requests`);
  requests.forEach((request, index) => string(request, `${field}.requests[${index}]`));
  stats.requests.push(...(requests as string[]).slice(-MAX_REQUESTS));
  stats.firstTurn = optional(json.firstTurn, (turn) => count(turn, `${field}.firstTurn`));
  stats.lastTurn = optional(json.lastTurn, (turn) => count(turn, `${field}.lastTurn`));
  const modelText = optional(json.modelText, (text) => string(text, `${field}.modelText`));
  return { modelText, stats };
}

const LEVELS: readonly unknown[] = ["ok", "warning", "critical"];

/** Validates serialised data; throws {@link ConversationFormatError} naming the first bad field. */
export function parseSerializedConversation(value: unknown): ParsedConversation {
  const json = object(value, "conversation");
  if (json.version !== SERIALIZED_CONVERSATION_VERSION)
    throw new ConversationFormatError("version", `must be ${SERIALIZED_CONVERSATION_VERSION}`);
  if (!LEVELS.includes(json.level))
    throw new ConversationFormatError("level", "must be ok, warning or critical");
  const entries = array(json.entries, "entries").map((raw, index) => {
    const field = `entries[${index}]`;
    const entry = object(raw, field);
    return {
      message: parseMessage(entry.message, `${field}.message`),
      pinned: flag(entry.pinned, `${field}.pinned`),
      pruned: flag(entry.pruned, `${field}.pruned`),
    };
  });
  const usage = optional(json.usage, (raw) => {
    const usage = object(raw, "usage");
    return {
      inputTokens: count(usage.inputTokens, "usage.inputTokens"),
      estimate: count(usage.estimate, "usage.estimate"),
    };
  });
  return {
    tokenizer: string(json.tokenizer, "tokenizer"),
    entries,
    summary: optional(json.summary, (summary) => parseSummary(summary, "summary")),
    usage,
    level: json.level as ContextLevel,
  };
}
