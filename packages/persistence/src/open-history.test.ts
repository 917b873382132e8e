import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it, vi } from "vitest";
import { openRaw, pluck, pluckAll } from "./__fixtures__/raw-db.js";
import { openTempHistory, tempDbPath } from "./__fixtures__/temp-history.js";
import { HistoryError } from "./errors.js";
import { defaultMigrationsFolder } from "./migrations.js";
import { openHistory } from "./open-history.js";

function inspect(file: string): DatabaseSync {
  return openRaw(file);
}

/** The migrations the package ships: each is applied once. */
const SHIPPED = readdirSync(new URL("../drizzle", import.meta.url)).filter((f) =>
  f.endsWith(".sql"),
).length;

describe("openHistory", () => {
  it("names the file when it cannot be opened: not a directory, or not a database", () => {
    const notADirectory = tempDbPath();
    writeFileSync(notADirectory, "a file");
    const inside = path.join(notADirectory, "history.db");
    expect(() => openHistory({ path: inside })).toThrow(
      expect.objectContaining({
        code: "HISTORY_OPEN_FAILED",
        message: expect.stringMatching(/^The history database '.*history\.db' cannot be opened: /),
      }),
    );
    const notADatabase = tempDbPath();
    writeFileSync(notADatabase, "x".repeat(4096));
    expect(() => openHistory({ path: notADatabase })).toThrow(
      expect.objectContaining({
        code: "HISTORY_OPEN_FAILED",
        message: expect.stringContaining(`'${notADatabase}' cannot be opened: `),
      }),
    );
    expect(readFileSync(notADatabase, "utf8")).toBe("x".repeat(4096));
  });

  it("creates missing directories and applies the migrations to a new file", () => {
    const file = path.join(path.dirname(tempDbPath()), "nested", "deeper", "history.db");
    openHistory({ path: file }).close();
    expect(existsSync(file)).toBe(true);
    const db = inspect(file);
    const tables = pluckAll(
      db,
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    );
    expect(tables).toEqual(
      expect.arrayContaining([
        "__drizzle_migrations",
        "conversations",
        "messages",
        "processed_events",
      ]),
    );
    expect(pluck(db, "SELECT count(*) FROM __drizzle_migrations")).toBe(SHIPPED);
    db.close();
  });

  it("is idempotent on reopen: no migration runs twice and the data stays", () => {
    const file = tempDbPath();
    const first = openHistory({ path: file });
    const conversation = first.createConversation({ title: "kept", provider: "p", model: "m" });
    first.close();
    const second = openHistory({ path: file });
    expect(second.getConversation(conversation.id)?.title).toBe("kept");
    second.close();
    const db = inspect(file);
    expect(pluck(db, "SELECT count(*) FROM __drizzle_migrations")).toBe(SHIPPED);
    db.close();
  });

  it("uses the WAL journal", () => {
    const file = tempDbPath();
    openTempHistory({ path: file }).createConversation({ title: "t", provider: "p", model: "m" });
    expect(existsSync(`${file}-wal`)).toBe(true);
    const db = inspect(file);
    expect(pluck(db, "PRAGMA journal_mode")).toBe("wal");
    db.close();
  });

  it("syncs every commit by default, and at checkpoints only with durability normal", () => {
    const exec = vi.spyOn(DatabaseSync.prototype, "exec");
    try {
      openTempHistory({ path: tempDbPath() });
      expect(exec).toHaveBeenCalledWith("PRAGMA synchronous = FULL");
      exec.mockClear();
      openTempHistory({ path: tempDbPath(), durability: "normal" });
      expect(exec).toHaveBeenCalledWith("PRAGMA synchronous = NORMAL");
      expect(exec).not.toHaveBeenCalledWith("PRAGMA synchronous = FULL");
    } finally {
      exec.mockRestore();
    }
  });

  it("groups writes into one transaction with batch: all kept, or none when one throws", () => {
    const history = openTempHistory({ path: tempDbPath() });
    const id = history.batch(() => {
      const created = history.createConversation({ title: "t", provider: "p", model: "m" });
      history.appendMessages(created.id, [{ message: { role: "user", content: "hi" } }]);
      return created.id;
    });
    expect(history.getConversation(id)?.messages).toHaveLength(1);
    expect(() =>
      history.batch(() => {
        history.createConversation({ title: "gone", provider: "p", model: "m" });
        history.finishConversation("01NOSUCHCONVERSATION000000", {
          status: "completed",
          stopReason: "completed",
          usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
          turns: 0,
        });
      }),
    ).toThrow();
    expect(history.listConversations().items.map((item) => item.title)).toEqual(["t"]);
  });

  it("waits for another writer up to the busy timeout, then fails", () => {
    const file = tempDbPath();
    const history = openTempHistory({ path: file, busyTimeoutMs: 200 });
    const other = openRaw(file, { readOnly: false });
    other.exec("BEGIN IMMEDIATE");
    const started = performance.now();
    expect(() => history.createConversation({ title: "t", provider: "p", model: "m" })).toThrow(
      /locked|busy/i,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    other.exec("ROLLBACK");
    other.close();
    expect(history.createConversation({ title: "t", provider: "p", model: "m" }).title).toBe("t");
  });

  it("finds the migrations beside src/ and dist/, and names a missing folder", () => {
    expect(existsSync(path.join(defaultMigrationsFolder(), "meta", "_journal.json"))).toBe(true);
    const folder = path.join(path.dirname(tempDbPath()), "nowhere");
    expect(() => openHistory({ path: tempDbPath(), migrationsFolder: folder })).toThrow(
      HistoryError,
    );
    expect(() => openHistory({ path: tempDbPath(), migrationsFolder: folder })).toThrow(folder);
  });

  it("keeps the database private: a new file and its WAL files 0600, new directories 0700", () => {
    const top = path.join(path.dirname(tempDbPath()), "data");
    const file = path.join(top, "nested", "history.db");
    const history = openHistory({ path: file });
    history.createConversation({ title: "holds file contents", provider: "p", model: "m" });
    const mode = (entry: string) => statSync(entry).mode & 0o777;
    expect(mode(file)).toBe(0o600);
    expect(mode(`${file}-wal`)).toBe(0o600);
    expect(mode(`${file}-shm`)).toBe(0o600);
    expect(mode(top)).toBe(0o700);
    expect(mode(path.dirname(file))).toBe(0o700);
    history.close();
  });

  it("leaves the mode of a directory it did not create alone", () => {
    const shared = path.join(path.dirname(tempDbPath()), "shared");
    mkdirSync(shared, { mode: 0o755 });
    openHistory({ path: path.join(shared, "history.db") }).close();
    expect(statSync(shared).mode & 0o777).toBe(0o755);
    expect(statSync(path.join(shared, "history.db")).mode & 0o777).toBe(0o600);
  });

  it("closes safely twice", () => {
    const history = openHistory({ path: tempDbPath() });
    history.close();
    expect(() => history.close()).not.toThrow();
  });
});
