import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it, vi } from "vitest";
import { pluck } from "./__fixtures__/raw-db.js";
import { tempDbPath } from "./__fixtures__/temp-history.js";
import { applyMigrations, defaultMigrationsFolder } from "./migrations.js";
import * as NodeSqlite from "./node-sqlite.js";

const lose = vi.hoisted(() => ({ afterWinnerMigrated: false, active: false }));

vi.mock("./node-sqlite.js", async (importOriginal) => {
  const original = await importOriginal<typeof NodeSqlite>();
  return {
    ...original,
    migrateNodeSqlite: (...args: Parameters<typeof original.migrateNodeSqlite>) => {
      if (!lose.active) return original.migrateNodeSqlite(...args);
      // Another process wins the race (or nobody does), then this one fails on its tables.
      if (lose.afterWinnerMigrated) original.migrateNodeSqlite(...args);
      throw new Error("table `conversations` already exists");
    },
  };
});

afterEach(() => {
  lose.active = false;
});

function openRaw() {
  const client = new DatabaseSync(tempDbPath());
  return { client, db: NodeSqlite.drizzleNodeSqlite(client) };
}

describe("applyMigrations", () => {
  it("accepts losing the race to another process that applied every migration", () => {
    const { client, db } = openRaw();
    Object.assign(lose, { active: true, afterWinnerMigrated: true });
    expect(() => applyMigrations(db, defaultMigrationsFolder())).not.toThrow();
    client.close();
  });

  it("reports a failure that leaves migrations unapplied", () => {
    const { client, db } = openRaw();
    Object.assign(lose, { active: true, afterWinnerMigrated: false });
    expect(() => applyMigrations(db, defaultMigrationsFolder())).toThrow(
      expect.objectContaining({ code: "HISTORY_MIGRATION_FAILED" }),
    );
    client.close();
  });

  it("applies the real migrations when nothing goes wrong", () => {
    const { client, db } = openRaw();
    applyMigrations(db, defaultMigrationsFolder());
    expect(pluck(client, "SELECT count(*) FROM conversations")).toBe(0);
    client.close();
  });
});
