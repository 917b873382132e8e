import type { Database, RunResult } from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";

/** The drizzle database over one better-sqlite3 connection. */
export type HistoryDatabase = BetterSQLite3Database & { readonly $client: Database };

/** The database or a transaction on it: what read helpers need. */
export type HistoryReader = BaseSQLiteDatabase<"sync", RunResult>;

/** What the store's operations share: the connection and the injected policies. */
export interface HistoryContext {
  readonly db: HistoryDatabase;
  /** Applied to every text written (message content, tool inputs, titles, labels, ...). */
  readonly redact: (text: string) => string;
  readonly now: () => Date;
  /** A new conversation id: a ULID of the creation time, monotonic within the process. */
  readonly newId: (createdAt: Date) => string;
}
