import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it, vi } from "vitest";
import { pluck } from "./__fixtures__/raw-db.js";
import { tempDbPath } from "./__fixtures__/temp-history.js";
import { applyMigrations, defaultMigrationsFolder } from "./migrations.js";
import * as NodeSqlite from "./node-sqlite.js";

const lose = vi.hoisted(() => ({ afterWinnerMigrated: false, active: false, calls: 0 }));

vi.mock("./node-sqlite.js", async (importOriginal) => {
  const original = await importOriginal<typeof NodeSqlite>();
  return {
    ...original,
    migrateNodeSqlite: (...args: Parameters<typeof original.migrateNodeSqlite>) => {
      lose.calls += 1;
      if (!lose.active) return original.migrateNodeSqlite(...args);
      // Another process wins the race (or nobody does), then this one fails on its tables.
      if (lose.afterWinnerMigrated) original.migrateNodeSqlite(...args);
      throw new Error("table `conversations` already exists");
    },
  };
});

afterEach(() => {
  lose.active = false;
  lose.calls = 0;
});

/**
 * A copy of the package's migrations and a database migrated from it; the copy is removed
 * after `use`.
 */
function withMigratedCopy(use: (folder: string, opened: ReturnType<typeof openRaw>) => void) {
  const folder = mkdtempSync(path.join(tmpdir(), "xz-migrations-"));
  try {
    cpSync(defaultMigrationsFolder(), folder, { recursive: true });
    const opened = openRaw();
    try {
      applyMigrations(opened.db, folder);
      use(folder, opened);
    } finally {
      opened.client.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

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

  it("leaves a database that has every migration to itself, without the migrator", () => {
    const { client, db } = openRaw();
    applyMigrations(db, defaultMigrationsFolder());
    expect(lose.calls).toBe(1);
    // The migrator would now fail: it is not called.
    Object.assign(lose, { active: true, afterWinnerMigrated: false });
    expect(() => applyMigrations(db, defaultMigrationsFolder())).not.toThrow();
    expect(lose.calls).toBe(1);
    client.close();
  });

  it("still migrates a database that lacks a migration the journal lists", () => {
    withMigratedCopy((folder, { client, db }) => {
      const journalFile = path.join(folder, "meta", "_journal.json");
      const journal = JSON.parse(readFileSync(journalFile, "utf8")) as {
        entries: {
          idx: number;
          version: string;
          when: number;
          tag: string;
          breakpoints: boolean;
        }[];
      };
      const last = journal.entries[journal.entries.length - 1]!;
      journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag: "9999_extra" });
      writeFileSync(journalFile, JSON.stringify(journal));
      writeFileSync(path.join(folder, "9999_extra.sql"), "CREATE TABLE extra (id integer);");
      applyMigrations(db, folder);
      expect(pluck(client, "SELECT count(*) FROM extra")).toBe(0);
      expect(lose.calls).toBe(2);
    });
  });

  it("goes to the migrator when the journal cannot be read as one", () => {
    withMigratedCopy((folder, { db }) => {
      writeFileSync(path.join(folder, "meta", "_journal.json"), "{ not json");
      expect(() => applyMigrations(db, folder)).toThrow(
        expect.objectContaining({ code: "HISTORY_MIGRATION_FAILED" }),
      );
      expect(lose.calls).toBe(2);
    });
  });
});
