import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type * as Migrator from "drizzle-orm/better-sqlite3/migrator";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDbPath } from "./__fixtures__/temp-history.js";
import { applyMigrations, defaultMigrationsFolder } from "./migrations.js";

const lose = vi.hoisted(() => ({ afterWinnerMigrated: false, active: false }));

vi.mock("drizzle-orm/better-sqlite3/migrator", async (importOriginal) => {
  const original = await importOriginal<typeof Migrator>();
  return {
    migrate: (...args: Parameters<typeof original.migrate>) => {
      if (!lose.active) return original.migrate(...args);
      // Another process wins the race (or nobody does), then this one fails on its tables.
      if (lose.afterWinnerMigrated) original.migrate(...args);
      throw new Error("table `conversations` already exists");
    },
  };
});

afterEach(() => {
  lose.active = false;
});

function openRaw() {
  const client = new Database(tempDbPath());
  return { client, db: drizzle({ client }) };
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
    expect(client.prepare("SELECT count(*) FROM conversations").pluck().get()).toBe(0);
    client.close();
  });
});
