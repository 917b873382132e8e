import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type { NodeSqliteDatabase, NodeSqliteRunResult } from "./node-sqlite.js";

/** The drizzle database over one `node:sqlite` connection. */
export type HistoryDatabase = NodeSqliteDatabase;

/** The database or a transaction on it: what read helpers need. */
export type HistoryReader = BaseSQLiteDatabase<"sync", NodeSqliteRunResult>;

/** What the store's operations share: the connection and the injected policies. */
export interface HistoryContext {
  readonly db: HistoryDatabase;
  /** Applied to every text written (message content, tool inputs, titles, labels, ...). */
  readonly redact: (text: string) => string;
  readonly now: () => Date;
  /** A new conversation id: a ULID of the creation time, monotonic within the process. */
  readonly newId: (createdAt: Date) => string;
}
