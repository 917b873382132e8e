import type { HistoryDatabase } from "./history-context.js";

/**
 * `build`, made once per connection: for queries that run every turn or every event, built
 * by drizzle once (prepared, with placeholders) instead of at each call, where building a
 * query cost more than running it. Forgotten with the connection.
 */
export function perConnection<T>(build: (db: HistoryDatabase) => T): (db: HistoryDatabase) => T {
  const made = new WeakMap<HistoryDatabase, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = build(db);
      made.set(db, value);
    }
    return value;
  };
}
