// drizzle-orm's synchronous SQLite interface over Node's built-in `node:sqlite`.
//
// drizzle-orm 0.45 ships no node:sqlite driver (it arrived in the 1.0 betas), and its
// `sqlite-proxy` driver is asynchronous, which would make every History method return a
// promise. This is drizzle's better-sqlite3 session ported to `DatabaseSync`: the query
// builders, the sync dialect and the migrator stay drizzle's own.
import type * as NodeSqlite from "node:sqlite";
import type {
  DatabaseSync,
  SQLInputValue,
  StatementResultingChanges,
  StatementSync,
} from "node:sqlite";
import { fillPlaceholders, sql, type Query } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import {
  BaseSQLiteDatabase,
  SQLitePreparedQuery,
  SQLiteSession,
  SQLiteSyncDialect,
  SQLiteTransaction,
  type PreparedQueryConfig,
  type SelectedFieldsOrdered,
  type SQLiteExecuteMethod,
  type SQLiteTransactionConfig,
} from "drizzle-orm/sqlite-core";
import type { TablesRelationalConfig } from "drizzle-orm";
import * as drizzleUtils from "drizzle-orm/utils";
import { HistoryError } from "./errors.js";

/** What a write returns: rows changed and the last rowid. */
export type NodeSqliteRunResult = StatementResultingChanges;

/** The drizzle database over one `DatabaseSync` connection. */
export type NodeSqliteDatabase = BaseSQLiteDatabase<"sync", NodeSqliteRunResult> & {
  readonly $client: DatabaseSync;
};

// No relational schema: drizzle's defaults for a database without `schema`.
type FullSchema = Record<string, unknown>;
type RowMapper = (rows: unknown[][]) => unknown;

/**
 * drizzle's row mapper, which its own drivers use: exported at runtime but marked internal,
 * so its type is not published. drizzle-orm is pinned and bundled, so this cannot drift.
 */
const { mapResultRow } = drizzleUtils as unknown as {
  mapResultRow: (
    fields: SelectedFieldsOrdered,
    row: unknown[],
    joinsNotNullableMap: Record<string, boolean> | undefined,
  ) => unknown;
};

/** The one warning Node emits when `node:sqlite` loads on versions that call it experimental. */
const EXPERIMENTAL_WARNING = /^SQLite is an experimental feature/;

/**
 * `node:sqlite`, loaded when the first database is opened (so importing this package costs
 * nothing to a process that never opens one). Node before 24.15 (and 25.7) calls the module
 * experimental and emits an ExperimentalWarning as it loads: see
 * {@link withoutSqliteExperimentalWarning}.
 */
export function loadNodeSqlite(): typeof NodeSqlite {
  // getBuiltinModule answers undefined for a module this Node does not have.
  const sqlite = withoutSqliteExperimentalWarning(() =>
    typeof process.getBuiltinModule === "function"
      ? (process.getBuiltinModule("node:sqlite") as typeof NodeSqlite | undefined)
      : undefined,
  );
  // setReturnArrays (22.16, 24.0) is the newest part of node:sqlite this driver uses.
  if (typeof sqlite?.StatementSync.prototype.setReturnArrays !== "function") {
    throw new HistoryError(
      "HISTORY_SQLITE_UNAVAILABLE",
      `The history database needs Node.js >= 22.16 (its built-in node:sqlite); this is Node.js ${process.versions.node}.`,
      { fields: { nodeVersion: process.versions.node, requiredNodeVersion: ">=22.16" } },
    );
  }
  return sqlite;
}

/**
 * Runs `load` with `process.emitWarning` filtered: the ExperimentalWarning about SQLite is
 * dropped, since it tells an XZatoma user nothing they can act on; every other warning,
 * and that one outside `load` (a process that loads `node:sqlite` itself), passes as usual.
 */
export function withoutSqliteExperimentalWarning<T>(load: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(warning: string | Error, ...rest: unknown[]) {
    const options = rest[0];
    const type =
      typeof options === "string"
        ? options
        : ((options as { type?: string } | undefined)?.type ??
          (warning instanceof Error ? warning.name : "Warning"));
    const message = typeof warning === "string" ? warning : warning.message;
    if (type === "ExperimentalWarning" && EXPERIMENTAL_WARNING.test(message)) return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  } as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** Wraps an open `DatabaseSync` connection in drizzle (sync API, no schema). */
export function drizzleNodeSqlite(client: DatabaseSync): NodeSqliteDatabase {
  const dialect = new SQLiteSyncDialect();
  const session = new NodeSqliteSession(client, dialect);
  const db = new BaseSQLiteDatabase("sync", dialect, session, undefined);
  sessions.set(db, session);
  return Object.assign(db, { $client: client }) as unknown as NodeSqliteDatabase;
}

const sessions = new WeakMap<object, NodeSqliteSession>();

/**
 * Applies the migrations in `migrationsFolder` that the database has not had yet, as
 * drizzle's own sync migrators do (one transaction, recorded in `__drizzle_migrations`).
 */
export function migrateNodeSqlite(
  db: NodeSqliteDatabase,
  config: { readonly migrationsFolder: string },
): void {
  const session = sessions.get(db);
  if (session === undefined) throw new TypeError("not a database of drizzleNodeSqlite()");
  session.dialect.migrate(readMigrationFiles(config), session, config);
}

/** How many prepared statements a session keeps for reuse. */
const STATEMENT_CACHE_SIZE = 64;

class NodeSqliteSession extends SQLiteSession<
  "sync",
  NodeSqliteRunResult,
  FullSchema,
  TablesRelationalConfig
> {
  readonly client: DatabaseSync;
  readonly dialect: SQLiteSyncDialect;
  /**
   * Prepared statements by their SQL, most recently used last: the same few queries run for
   * every turn and every watcher event, and preparing one is SQLite compiling its SQL again.
   * A statement is reusable (every use binds its parameters and sets its row mode), and
   * this session is used from one thread, one call at a time.
   */
  readonly #statements = new Map<string, StatementSync>();

  constructor(client: DatabaseSync, dialect: SQLiteSyncDialect) {
    super(dialect);
    this.client = client;
    this.dialect = dialect;
  }

  prepareQuery<T extends PreparedQueryConfig>(
    query: Query,
    fields: SelectedFieldsOrdered | undefined,
    executeMethod: SQLiteExecuteMethod,
    isResponseInArrayMode: boolean,
    customResultMapper?: RowMapper,
  ): NodeSqlitePreparedQuery<T> {
    return new NodeSqlitePreparedQuery<T>(
      this.#statement(query.sql),
      query,
      fields,
      executeMethod,
      isResponseInArrayMode,
      customResultMapper,
    );
  }

  #statement(sql: string): StatementSync {
    const cached = this.#statements.get(sql);
    if (cached !== undefined) {
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const statement = this.client.prepare(sql);
    this.#statements.set(sql, statement);
    // Bounded: a query with a list of values (`IN (?, ?, ...)`) has a text per length.
    if (this.#statements.size > STATEMENT_CACHE_SIZE) {
      const oldest = this.#statements.keys().next().value;
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    return statement;
  }

  transaction<T>(
    transaction: (tx: NodeSqliteTransaction) => T,
    config: SQLiteTransactionConfig = {},
  ): T {
    const tx = new NodeSqliteTransaction(this);
    // Inside a transaction already (writes grouped into one commit): a savepoint of it.
    if (this.client.isTransaction) return tx.transaction(transaction);
    this.client.exec(`BEGIN ${(config.behavior ?? "deferred").toUpperCase()}`);
    try {
      const result = transaction(tx);
      this.client.exec("COMMIT");
      return result;
    } catch (error) {
      // SQLite may have rolled back already (some errors end the transaction).
      if (this.client.isTransaction) this.client.exec("ROLLBACK");
      throw error;
    }
  }
}

class NodeSqliteTransaction extends SQLiteTransaction<
  "sync",
  NodeSqliteRunResult,
  FullSchema,
  TablesRelationalConfig
> {
  private readonly owner: NodeSqliteSession;

  constructor(owner: NodeSqliteSession, nestedIndex = 0) {
    super("sync", owner.dialect, owner, undefined, nestedIndex);
    this.owner = owner;
  }

  /** A nested transaction: a savepoint, as drizzle's better-sqlite3 driver does. */
  override transaction<T>(transaction: (tx: NodeSqliteTransaction) => T): T {
    const savepoint = `sp${this.nestedIndex}`;
    const tx = new NodeSqliteTransaction(this.owner, this.nestedIndex + 1);
    this.owner.run(sql.raw(`SAVEPOINT ${savepoint}`));
    try {
      const result = transaction(tx);
      this.owner.run(sql.raw(`RELEASE SAVEPOINT ${savepoint}`));
      return result;
    } catch (error) {
      this.owner.run(sql.raw(`ROLLBACK TO SAVEPOINT ${savepoint}`));
      throw error;
    }
  }
}

class NodeSqlitePreparedQuery<T extends PreparedQueryConfig> extends SQLitePreparedQuery<{
  type: "sync";
  run: NodeSqliteRunResult;
  all: T["all"];
  get: T["get"];
  values: T["values"];
  execute: T["execute"];
}> {
  private readonly statement: StatementSync;
  private readonly fields: SelectedFieldsOrdered | undefined;
  private readonly customResultMapper: RowMapper | undefined;
  private readonly arrayMode: boolean;

  constructor(
    statement: StatementSync,
    query: Query,
    fields: SelectedFieldsOrdered | undefined,
    executeMethod: SQLiteExecuteMethod,
    arrayMode: boolean,
    customResultMapper: RowMapper | undefined,
  ) {
    super("sync", executeMethod, query);
    this.statement = statement;
    this.fields = fields;
    this.arrayMode = arrayMode;
    this.customResultMapper = customResultMapper;
  }

  /** Read by drizzle's relational and batch queries, as on its own drivers' prepared queries. */
  isResponseInArrayMode(): boolean {
    return this.arrayMode;
  }

  /** Set by drizzle's select builder on the prepared query (internal, so not typed). */
  private get nullableJoins(): Record<string, boolean> | undefined {
    return (this as { joinsNotNullableMap?: Record<string, boolean> }).joinsNotNullableMap;
  }

  private params(placeholderValues: Record<string, unknown> | undefined): SQLInputValue[] {
    return fillPlaceholders(this.query.params, placeholderValues ?? {}) as SQLInputValue[];
  }

  run(placeholderValues?: Record<string, unknown>): NodeSqliteRunResult {
    return this.statement.run(...this.params(placeholderValues));
  }

  all(placeholderValues?: Record<string, unknown>): T["all"] {
    const { fields, customResultMapper } = this;
    if (!fields && !customResultMapper) {
      this.statement.setReturnArrays(false);
      return this.statement.all(...this.params(placeholderValues));
    }
    const rows = this.values(placeholderValues) as unknown[][];
    if (customResultMapper) return customResultMapper(rows) as T["all"];
    return rows.map((row) =>
      mapResultRow(fields as SelectedFieldsOrdered, row, this.nullableJoins),
    );
  }

  get(placeholderValues?: Record<string, unknown>): T["get"] {
    const params = this.params(placeholderValues);
    const { fields, customResultMapper } = this;
    if (!fields && !customResultMapper) {
      this.statement.setReturnArrays(false);
      return this.statement.get(...params);
    }
    this.statement.setReturnArrays(true);
    const row = this.statement.get(...params) as unknown[] | undefined;
    if (row === undefined) return undefined;
    if (customResultMapper) return customResultMapper([row]) as T["get"];
    return mapResultRow(fields as SelectedFieldsOrdered, row, this.nullableJoins);
  }

  values(placeholderValues?: Record<string, unknown>): T["values"] {
    this.statement.setReturnArrays(true);
    return this.statement.all(...this.params(placeholderValues));
  }
}
