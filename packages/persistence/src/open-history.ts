import { closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { redactSecrets } from "@xzatoma/redaction";
import { monotonicFactory } from "ulid";
import { createConversation, deleteConversation, finishConversation } from "./conversations.js";
import {
  findProcessedEvents,
  forgetProcessedEvent,
  isEventProcessed,
  lookupProcessedEvent,
  markEventProcessed,
} from "./event-ledger.js";
import { HistoryError } from "./errors.js";
import type { History } from "./history.js";
import type { HistoryContext } from "./history-context.js";
import { appendMessages, markPruned } from "./messages.js";
import { applyMigrations, defaultMigrationsFolder } from "./migrations.js";
import { drizzleNodeSqlite, loadNodeSqlite } from "./node-sqlite.js";
import { getConversation, getConversationTree, listConversations } from "./queries.js";

/** Default of {@link OpenHistoryOptions.busyTimeoutMs}. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Options of {@link openHistory}. */
export interface OpenHistoryOptions {
  /**
   * The database file. Missing directories are created with
   * mode 0700 and a new file with mode 0600 (its WAL files follow it).
   * `":memory:"` gives a private in-memory database (no WAL).
   */
  readonly path: string;
  /**
   * Applied to every text before it is written: message content (tool results too),
   * strings and numbers in tool-call inputs (with their keys), titles, labels, stop
   * reasons and event outcomes. Default: `redactSecrets` of `@xzatoma/redaction`, so the
   * database never holds a secret unless a caller says so. Pass another redactor to add
   * to it (e.g. `createRedactor({ known })`), or `(text) => text` to store text as is.
   */
  readonly redact?: (text: string) => string;
  /** How long a write waits for another process's write to finish. Default 5000 ms. */
  readonly busyTimeoutMs?: number;
  /** The migrations folder. Default: the package's `drizzle/`; set it only when bundling. */
  readonly migrationsFolder?: string;
  /** The clock. Default: `new Date()`. */
  readonly now?: () => Date;
  /**
   * When a commit reaches the disk. `full` (the default): at every commit, so a committed
   * turn survives a power cut too, for one fsync per commit. `normal`: at checkpoints; a
   * process that crashes or is killed loses nothing, but the last commits before an
   * operating-system crash or power cut may be lost. For a service that commits per event
   * and has another record of what it finished (the watcher: Kafka's transactions).
   */
  readonly durability?: "full" | "normal";
}

/**
 * The ULID factory's random source: Web Crypto's bytes, as the factory's own default uses, one
 * byte per character (a fraction of 256), drawn 256 at a time instead of one call per
 * character (16 per id, each with its own buffer).
 */
function pooledRandom(): () => number {
  const pool = new Uint8Array(256);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      crypto.getRandomValues(pool);
      next = 0;
    }
    const byte = pool[next] ?? 0;
    next += 1;
    return byte / 256;
  };
}

/**
 * Opens (creating if needed) the history database at `options.path`: WAL journal,
 * foreign keys on, a busy timeout, and the package's migrations applied.
 *
 * @example
 * const history = openHistory({ path: path.join(dataDir, "history.db") });
 * const conversation = history.createConversation({ title, provider: "ollama", model });
 * history.appendMessages(conversation.id, [{ message: userMessage(prompt) }]);
 */
export function openHistory(options: OpenHistoryOptions): History {
  const inMemory = options.path === ":memory:";
  const file = inMemory ? options.path : path.resolve(options.path);
  const { DatabaseSync } = loadNodeSqlite();
  const client = cannotOpen(file, () => {
    if (!inMemory) {
      // History holds file contents and command output: only its owner may read it.
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      // Created here, 0600, before SQLite would create it 0644; SQLite gives the -wal and
      // -shm files the database file's mode.
      closeSync(openSync(file, "a", 0o600));
    }
    return new DatabaseSync(file, { timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS });
  });
  try {
    // WAL: readers never block the writer, and a commit is one append to the log.
    client.exec("PRAGMA journal_mode = WAL");
    // FULL: a committed turn survives a power cut too, for one fsync per turn (durability).
    client.exec(`PRAGMA synchronous = ${options.durability === "normal" ? "NORMAL" : "FULL"}`);
    client.exec("PRAGMA foreign_keys = ON");
    const db = drizzleNodeSqlite(client);
    applyMigrations(db, options.migrationsFolder ?? defaultMigrationsFolder());
    const now = options.now ?? (() => new Date());
    // Made with the first id: Web Crypto is touched only then, and loading Node's crypto is a
    // few milliseconds a command that records nothing saves.
    let ulid: ReturnType<typeof monotonicFactory> | undefined;
    const context: HistoryContext = {
      db,
      redact: options.redact ?? ((text) => redactSecrets(text)),
      now,
      newId: (createdAt) => (ulid ??= monotonicFactory(pooledRandom()))(createdAt.getTime()),
    };
    return createHistory(context, file);
  } catch (error) {
    client.close();
    // Not a database, or a database this user may not write: named like any other.
    if (error instanceof HistoryError) throw error;
    return cannotOpen(file, () => {
      throw error;
    });
  }
}

/**
 * Runs `open`, turning a failure (a directory that cannot be made, a file that cannot be
 * created or read, not a database) into `HISTORY_OPEN_FAILED` naming the file.
 */
function cannotOpen<T>(file: string, open: () => T): T {
  try {
    return open();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HistoryError(
      "HISTORY_OPEN_FAILED",
      `The history database '${file}' cannot be opened: ${reason}`,
      { fields: { path: file }, cause: error },
    );
  }
}

function createHistory(context: HistoryContext, file: string): History {
  return {
    path: file,
    createConversation: (input) => createConversation(context, input),
    appendMessages: (id, messages, progress) => appendMessages(context, id, messages, progress),
    markPruned: (id, sequences) => markPruned(context, id, sequences),
    finishConversation: (id, outcome) => finishConversation(context, id, outcome),
    // Immediate: the write lock is taken at once, so the group cannot fail half way to a
    // writer of another process.
    batch: (writes) => context.db.transaction(() => writes(), { behavior: "immediate" }),
    listConversations: (query) => listConversations(context, query),
    getConversation: (idOrPrefix) => getConversation(context, idOrPrefix),
    getConversationTree: (idOrPrefix) => getConversationTree(context, idOrPrefix),
    deleteConversation: (idOrPrefix) => deleteConversation(context, idOrPrefix),
    markEventProcessed: (eventId, event) => markEventProcessed(context, eventId, event),
    isEventProcessed: (eventId) => isEventProcessed(context, eventId),
    lookupProcessedEvent: (eventId) => lookupProcessedEvent(context, eventId),
    forgetProcessedEvent: (eventId) => forgetProcessedEvent(context, eventId),
    findProcessedEvents: (pattern, limit) => findProcessedEvents(context, pattern, limit),
    close: () => {
      if (context.db.$client.isOpen) context.db.$client.close();
    },
  };
}
