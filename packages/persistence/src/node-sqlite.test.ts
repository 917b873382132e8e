import { DatabaseSync } from "node:sqlite";
import { eq, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  drizzleNodeSqlite,
  loadNodeSqlite,
  withoutSqliteExperimentalWarning,
} from "./node-sqlite.js";

const items = sqliteTable("items", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  done: integer("done", { mode: "boolean" }).notNull().default(false),
  data: text("data", { mode: "json" }).$type<{ tags: string[] }>(),
});
const owners = sqliteTable("owners", {
  id: integer("id").primaryKey(),
  itemId: integer("item_id").notNull(),
  name: text("name").notNull(),
});

const clients: DatabaseSync[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) if (client.isOpen) client.close();
});

function open() {
  const client = new DatabaseSync(":memory:");
  clients.push(client);
  client.exec(
    "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0, data TEXT);" +
      "CREATE TABLE owners (id INTEGER PRIMARY KEY, item_id INTEGER NOT NULL, name TEXT NOT NULL);",
  );
  return drizzleNodeSqlite(client);
}

describe("drizzleNodeSqlite", () => {
  it("runs drizzle's sync queries: insert with returning, get, all, update, values", () => {
    const db = open();
    const inserted = db
      .insert(items)
      .values({ name: "a", done: true, data: { tags: ["x"] } })
      .returning()
      .get();
    expect(inserted).toEqual({ id: 1, name: "a", done: true, data: { tags: ["x"] } });
    const run = db.insert(items).values({ name: "b" }).run();
    expect(run).toMatchObject({ changes: 1, lastInsertRowid: 2 });
    expect(db.select({ name: items.name }).from(items).all()).toEqual([
      { name: "a" },
      { name: "b" },
    ]);
    expect(db.select().from(items).where(eq(items.name, "zz")).get()).toBeUndefined();
    expect(db.update(items).set({ done: true }).where(eq(items.id, 2)).run().changes).toBe(1);
    expect(db.all<{ n: number }>(sql`SELECT count(*) AS n FROM items WHERE done = 1`)).toEqual([
      { n: 2 },
    ]);
    expect(db.values(sql`SELECT id, name FROM items ORDER BY id`)).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
  });

  it("keeps same-named columns of a join apart (rows are read as arrays)", () => {
    const db = open();
    db.insert(items).values({ id: 7, name: "item" }).run();
    db.insert(owners).values({ id: 9, itemId: 7, name: "owner" }).run();
    const row = db
      .select()
      .from(items)
      .leftJoin(owners, eq(owners.itemId, items.id))
      .where(eq(items.id, 7))
      .get();
    expect(row?.items.name).toBe("item");
    expect(row?.owners?.name).toBe("owner");
    expect(row?.owners?.id).toBe(9);
  });

  it("commits a transaction, and rolls back one that throws, nested savepoints included", () => {
    const db = open();
    db.transaction((tx) => {
      tx.insert(items).values({ name: "kept" }).run();
      expect(() =>
        tx.transaction((nested) => {
          nested.insert(items).values({ name: "savepoint rolled back" }).run();
          throw new Error("inner");
        }),
      ).toThrow("inner");
    });
    expect(() =>
      db.transaction(
        (tx) => {
          tx.insert(items).values({ name: "rolled back" }).run();
          throw new Error("outer");
        },
        { behavior: "immediate" },
      ),
    ).toThrow("outer");
    expect(db.select({ name: items.name }).from(items).all()).toEqual([{ name: "kept" }]);
    expect(db.$client.isTransaction).toBe(false);
  });

  it("rolls back when drizzle's tx.rollback() is called", () => {
    const db = open();
    expect(() =>
      db.transaction((tx) => {
        tx.insert(items).values({ name: "gone" }).run();
        tx.rollback();
      }),
    ).toThrow(/rollback/i);
    expect(db.select().from(items).all()).toEqual([]);
  });
});

describe("withoutSqliteExperimentalWarning", () => {
  it("prepares a query's SQL once and reuses it, and keeps giving right answers past its cache", () => {
    const db = open();
    db.insert(items)
      .values(Array.from({ length: 100 }, (_, index) => ({ id: index + 1, name: `n${index + 1}` })))
      .run();
    const prepare = vi.spyOn(DatabaseSync.prototype, "prepare");
    try {
      const byId = (id: number) => db.select().from(items).where(eq(items.id, id)).get();
      expect(byId(1)?.name).toBe("n1");
      expect(byId(2)?.name).toBe("n2");
      expect(byId(3)).toMatchObject({ id: 3, name: "n3", done: false });
      expect(prepare).toHaveBeenCalledTimes(1);
      // 100 lists of different lengths: 100 different texts, more than the cache keeps.
      for (let length = 1; length <= 100; length += 1) {
        const ids = Array.from({ length }, (_, index) => index + 1);
        const rows = db
          .select({ id: items.id })
          .from(items)
          .where(sql`${items.id} in ${ids}`)
          .all();
        expect(rows).toHaveLength(length);
      }
      // The first query's statement was dropped from the cache and is prepared again.
      expect(byId(4)?.name).toBe("n4");
      expect(prepare).toHaveBeenCalledTimes(102);
    } finally {
      prepare.mockRestore();
    }
  });

  it("drops only the SQLite ExperimentalWarning emitted while loading", async () => {
    const seen: string[] = [];
    const listener = (warning: Error) => seen.push(`${warning.name}: ${warning.message}`);
    process.on("warning", listener);
    try {
      const loaded = withoutSqliteExperimentalWarning(() => {
        process.emitWarning(
          "SQLite is an experimental feature and might change at any time",
          "ExperimentalWarning",
        );
        process.emitWarning("Something else is experimental", "ExperimentalWarning");
        process.emitWarning("a plain warning");
        return 42;
      });
      expect(loaded).toBe(42);
      process.emitWarning("SQLite is an experimental feature, outside the load", {
        type: "ExperimentalWarning",
      });
      // Warnings are delivered on the next tick.
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off("warning", listener);
    }
    expect(seen).toEqual([
      "ExperimentalWarning: Something else is experimental",
      "Warning: a plain warning",
      "ExperimentalWarning: SQLite is an experimental feature, outside the load",
    ]);
  });

  it("restores process.emitWarning even when loading throws", () => {
    const original = process.emitWarning;
    expect(() =>
      withoutSqliteExperimentalWarning(() => {
        throw new Error("no sqlite");
      }),
    ).toThrow("no sqlite");
    expect(process.emitWarning).toBe(original);
  });
});

describe("loadNodeSqlite", () => {
  it("loads node:sqlite", () => {
    expect(typeof loadNodeSqlite().DatabaseSync).toBe("function");
  });

  it("names the Node.js it needs where node:sqlite is missing (Node 20)", () => {
    const spy = vi.spyOn(process, "getBuiltinModule").mockReturnValue(undefined as never);
    try {
      expect(() => loadNodeSqlite()).toThrow(
        expect.objectContaining({
          code: "HISTORY_SQLITE_UNAVAILABLE",
          message: expect.stringContaining("Node.js >= 22.16"),
        }),
      );
    } finally {
      spy.mockRestore();
    }
  });
});
