import { and, asc, count, desc, eq, gte, inArray, isNull, lt, sql, type SQL } from "drizzle-orm";
import { resolveConversationId } from "./conversation-id.js";
import type { HistoryContext } from "./history-context.js";
import { loadMessages } from "./messages.js";
import type { ConversationStatus } from "./model.js";
import {
  toConversationRecord,
  type ConversationRecord,
  type ConversationTree,
  type ConversationWithMessages,
} from "./records.js";
import { conversations } from "./schema/index.js";
import { toRfc3339 } from "./time.js";

/** Default page size of {@link listConversations}. */
export const DEFAULT_PAGE_SIZE = 20;

/** Paging and filters of `History.listConversations`. */
export interface ConversationQuery {
  /** Page size. Default 20. */
  readonly limit?: number;
  /** Conversations to skip. Default 0. */
  readonly offset?: number;
  /** Started at or after this time. */
  readonly since?: Date;
  /** Started before this time. */
  readonly until?: Date;
  /** Any of these statuses. Default: all. */
  readonly status?: readonly ConversationStatus[];
  /**
   * `null`: top-level conversations only; an id: the subagents that conversation
   * spawned. Default: all conversations.
   */
  readonly parentId?: string | null;
}

/** One page of conversations and how many match the query in all. */
export interface ConversationPage {
  /** Newest first. */
  readonly items: readonly ConversationRecord[];
  readonly total: number;
}

/** `History.listConversations`: one page, newest first, and the count of all matches. */
export function listConversations(
  context: HistoryContext,
  query: ConversationQuery = {},
): ConversationPage {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const offset = query.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError("limit must be an integer >= 0");
  if (!Number.isInteger(offset) || offset < 0) {
    throw new RangeError("offset must be an integer >= 0");
  }
  const where = and(...filters(query));
  const rows = context.db
    .select()
    .from(conversations)
    .where(where)
    // Ties (same second) fall back to the ULID, which orders by creation.
    .orderBy(desc(conversations.startedAt), desc(conversations.id))
    .limit(limit)
    .offset(offset)
    .all();
  const total = context.db.select({ total: count() }).from(conversations).where(where).get();
  return { items: rows.map(toConversationRecord), total: total?.total ?? 0 };
}

function filters(query: ConversationQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.since) conditions.push(gte(conversations.startedAt, toRfc3339(query.since)));
  if (query.until) conditions.push(lt(conversations.startedAt, toRfc3339(query.until)));
  if (query.status) conditions.push(inArray(conversations.status, [...query.status]));
  if (query.parentId === null) conditions.push(isNull(conversations.parentId));
  else if (query.parentId !== undefined) {
    conditions.push(eq(conversations.parentId, query.parentId));
  }
  return conditions;
}

/** `History.getConversation`: the conversation and its messages, by id or unique prefix. */
export function getConversation(
  context: HistoryContext,
  idOrPrefix: string,
): ConversationWithMessages | undefined {
  const id = resolveConversationId(context, idOrPrefix);
  if (id === undefined) return undefined;
  const row = context.db.select().from(conversations).where(eq(conversations.id, id)).get();
  if (!row) return undefined;
  return { ...toConversationRecord(row), messages: loadMessages(context.db, [id]).get(id) ?? [] };
}

/** `History.getConversationTree`: the conversation and its subagents' conversations, recursively. */
export function getConversationTree(
  context: HistoryContext,
  idOrPrefix: string,
): ConversationTree | undefined {
  const rootId = resolveConversationId(context, idOrPrefix);
  if (rootId === undefined) return undefined;
  // One read transaction, so the tree and its messages are one consistent snapshot.
  return context.db.transaction((tx) => {
    const ids = tx
      .all<{ id: string }>(
        sql`WITH RECURSIVE tree(id) AS (
              SELECT id FROM conversations WHERE id = ${rootId}
              UNION
              SELECT conversations.id FROM conversations JOIN tree ON conversations.parent_id = tree.id
            )
            SELECT id FROM tree`,
      )
      .map((row) => row.id);
    const rows = tx
      .select()
      .from(conversations)
      .where(inArray(conversations.id, ids))
      .orderBy(asc(conversations.startedAt), asc(conversations.id))
      .all();
    const messagesById = loadMessages(tx, ids);
    const children = new Map<string, ConversationTree[]>(ids.map((id) => [id, []]));
    const nodes = rows.map((row): ConversationTree => ({
      ...toConversationRecord(row),
      messages: messagesById.get(row.id) ?? [],
      children: children.get(row.id) ?? [],
    }));
    // Rows are oldest first, so every child list comes out oldest first.
    for (const node of nodes) {
      if (node.id !== rootId && node.parentId !== undefined) {
        children.get(node.parentId)?.push(node);
      }
    }
    return nodes.find((node) => node.id === rootId);
  });
}
