import { redactValue } from "@xzatoma/redaction";
import type {
  ConversationStatus,
  ConversationTree,
  HistoryMessage,
  UsageTotals,
} from "@xzatoma/persistence";

/** The `format` of an exported conversation. */
export const EXPORT_FORMAT = "xzatoma-conversation";
/** The version of the export format this XZatoma writes and reads (docs/reference/conversation-export.md). */
export const EXPORT_VERSION = 1;

/** One message of an exported conversation. */
export interface ExportedMessage {
  readonly sequence: number;
  readonly createdAt: string;
  readonly pruned: boolean;
  readonly pinned: boolean;
  readonly message: HistoryMessage;
}

/** A conversation and, nested, the conversations of its subagents. */
export interface ExportedConversation {
  readonly id: string;
  readonly label?: string;
  readonly title: string;
  readonly provider: string;
  readonly model: string;
  readonly status: ConversationStatus;
  readonly stopReason?: string;
  readonly startedAt: string;
  readonly completedAt?: string;
  readonly usage: UsageTotals;
  readonly turns: number;
  readonly messages: readonly ExportedMessage[];
  readonly subagents: readonly ExportedConversation[];
}

/** An exported conversation file (`--format json`). */
export interface ConversationExport {
  readonly format: typeof EXPORT_FORMAT;
  readonly version: number;
  /** RFC 3339, UTC. */
  readonly exportedAt: string;
  readonly conversation: ExportedConversation;
}

function exportTree(tree: ConversationTree): ExportedConversation {
  return {
    id: tree.id,
    ...(tree.label === undefined ? {} : { label: tree.label }),
    title: tree.title,
    provider: tree.provider,
    model: tree.model,
    status: tree.status,
    ...(tree.stopReason === undefined ? {} : { stopReason: tree.stopReason }),
    startedAt: tree.startedAt,
    ...(tree.completedAt === undefined ? {} : { completedAt: tree.completedAt }),
    usage: tree.usage,
    turns: tree.turns,
    messages: tree.messages
      .filter((stored) => stored.role !== "system")
      .map((stored) => ({
        sequence: stored.sequence,
        createdAt: stored.createdAt,
        pruned: stored.pruned,
        pinned: stored.pinned,
        message: stored.message,
      })),
    subagents: tree.children.map(exportTree),
  };
}

/**
 * The export of a conversation tree, every string in it redacted again by the one
 * redaction module (`redactValue` of `@xzatoma/redaction`): history is redacted when written,
 * and an export may leave the machine, so it is redacted with today's rules as well.
 */
export function buildConversationExport(
  tree: ConversationTree,
  now = new Date(),
): ConversationExport {
  return redactValue({
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString().replace(/\.\d{3}Z$/, "Z"),
    conversation: exportTree(tree),
  });
}

function fail(where: string, what: string): never {
  throw new Error(`${where}: ${what}`);
}

function checkConversation(value: unknown, where: string): ExportedConversation {
  if (typeof value !== "object" || value === null) fail(where, "not an object");
  const record = value as Record<string, unknown>;
  for (const key of ["title", "provider", "model", "status", "startedAt"]) {
    if (typeof record[key] !== "string") fail(`${where}.${key}`, "missing or not a string");
  }
  if (!Array.isArray(record["messages"])) fail(`${where}.messages`, "missing or not a list");
  for (const [index, entry] of (record["messages"] as unknown[]).entries()) {
    const message = (entry as { message?: { role?: unknown; content?: unknown } } | null)?.message;
    if (!message || !["user", "assistant", "tool", "system"].includes(String(message.role))) {
      fail(`${where}.messages[${index}].message.role`, "not user, assistant, tool or system");
    }
    if (typeof message.content !== "string") {
      fail(`${where}.messages[${index}].message.content`, "not a string");
    }
  }
  const subagents = record["subagents"] ?? [];
  if (!Array.isArray(subagents)) fail(`${where}.subagents`, "not a list");
  subagents.forEach((child, index) => checkConversation(child, `${where}.subagents[${index}]`));
  return value as ExportedConversation;
}

/** Reads an export file's text; throws naming the field that is wrong. */
export function parseConversationExport(text: string): ConversationExport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    });
  }
  const document = value as Partial<ConversationExport> | null;
  if (document?.format !== EXPORT_FORMAT) fail("format", `not "${EXPORT_FORMAT}"`);
  if (typeof document.version !== "number" || document.version > EXPORT_VERSION) {
    fail(
      "version",
      `${String(document.version)} is not one this XZatoma reads (up to ${EXPORT_VERSION})`,
    );
  }
  checkConversation(document.conversation, "conversation");
  return document as ConversationExport;
}
