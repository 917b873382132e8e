/**
 * Times are stored as RFC 3339 strings in UTC to the second (`2026-11-22T03:00:00Z`):
 * readable in the `sqlite3` shell, and ordered correctly by plain string comparison.
 */

/** Formats `date` as RFC 3339 in UTC, to the second: `2026-11-22T03:00:00Z`. */
export function toRfc3339(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError("Invalid date");
  return `${date.toISOString().slice(0, 19)}Z`;
}
