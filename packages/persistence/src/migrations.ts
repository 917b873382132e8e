import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { HistoryError } from "./errors.js";
import type { HistoryDatabase } from "./history-context.js";
import { migrateNodeSqlite } from "./node-sqlite.js";

const MIGRATIONS_TABLE = "__drizzle_migrations";

/**
 * The migrations shipped with the package: `drizzle/` beside `dist/` (and beside `src/`
 * in the workspace), found from this module's URL so it works from an installed tarball.
 * A program that bundles this module copies the folder beside its bundle (`./drizzle`),
 * which is looked at first: `@xzatoma/cli` does.
 */
export function defaultMigrationsFolder(): string {
  const bundled = fileURLToPath(new URL("./drizzle", import.meta.url));
  if (existsSync(`${bundled}/meta/_journal.json`)) return bundled;
  return fileURLToPath(new URL("../drizzle", import.meta.url));
}

/**
 * Brings the database's schema up to date with drizzle's migrator. Two processes that
 * open a new file at once may race; the loser's `migrate` fails on tables the winner
 * created, which is fine as long as every migration is then recorded.
 */
export function applyMigrations(db: HistoryDatabase, migrationsFolder: string): void {
  const journal = `${migrationsFolder}/meta/_journal.json`;
  if (!existsSync(journal)) {
    throw new HistoryError(
      "HISTORY_MIGRATIONS_MISSING",
      `The history database migrations are missing: no ${migrationsFolder}/meta/_journal.json. ` +
        "Ship the package's drizzle/ folder, or pass migrationsFolder to openHistory().",
      { fields: { migrationsFolder } },
    );
  }
  // A database that has every migration of the journal is left alone, by drizzle's own
  // test (a migration is applied when its journal time is at most the latest created_at
  // recorded), without reading and hashing each migration's SQL as its migrator does on
  // every open. Anything unexpected goes to the migrator.
  if (hasEveryMigration(db, journal)) return;
  try {
    migrateNodeSqlite(db, { migrationsFolder });
  } catch (error) {
    if (isUpToDate(db, migrationsFolder)) return;
    const database = db.$client.location() ?? ":memory:";
    throw new HistoryError(
      "HISTORY_MIGRATION_FAILED",
      `Could not migrate the history database ${database}: ${String(error)}`,
      { cause: error, fields: { database, migrationsFolder } },
    );
  }
}

/** The latest `when` of the journal's entries, or undefined when it cannot be read as one. */
function latestJournalTime(journal: string): number | undefined {
  try {
    const parsed = JSON.parse(readFileSync(journal, "utf8")) as { entries?: unknown };
    if (!Array.isArray(parsed.entries) || parsed.entries.length === 0) return undefined;
    let latest = 0;
    for (const entry of parsed.entries as { when?: unknown }[]) {
      if (typeof entry.when !== "number" || !Number.isFinite(entry.when)) return undefined;
      latest = Math.max(latest, entry.when);
    }
    return latest;
  } catch {
    return undefined;
  }
}

function hasEveryMigration(db: HistoryDatabase, journal: string): boolean {
  const latest = latestJournalTime(journal);
  if (latest === undefined) return false;
  try {
    const applied = db.get<{ latest: number | null }>(
      sql`SELECT max(created_at) AS latest FROM ${sql.identifier(MIGRATIONS_TABLE)}`,
    );
    return (
      applied?.latest !== null && applied?.latest !== undefined && Number(applied.latest) >= latest
    );
  } catch {
    return false; // no migrations table yet: a new database
  }
}

function isUpToDate(db: HistoryDatabase, migrationsFolder: string): boolean {
  try {
    const latest = Math.max(
      0,
      ...readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis),
    );
    const applied = db.get<{ latest: number | null }>(
      sql`SELECT max(created_at) AS latest FROM ${sql.identifier(MIGRATIONS_TABLE)}`,
    );
    return Number(applied?.latest ?? 0) >= latest;
  } catch {
    return false; // unreadable migrations or no table: not up to date
  }
}
