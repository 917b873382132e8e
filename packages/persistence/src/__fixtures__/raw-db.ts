// Direct SQLite access for tests that look at the file behind the History API.
import { DatabaseSync } from "node:sqlite";

/** A second connection to `file`, outside the store (read-only unless asked). */
export function openRaw(file: string, options: { readOnly?: boolean } = {}): DatabaseSync {
  return new DatabaseSync(file, { readOnly: options.readOnly ?? true });
}

/** The first column of every row of `query`. */
export function pluckAll(db: DatabaseSync, query: string): unknown[] {
  const statement = db.prepare(query);
  statement.setReturnArrays(true);
  return (statement.all() as unknown as unknown[][]).map((row) => row[0]);
}

/** The first column of the first row of `query`. */
export function pluck(db: DatabaseSync, query: string): unknown {
  return pluckAll(db, query)[0];
}
