/** Edit distance (insertions, deletions, substitutions, adjacent swaps) between two strings. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  const at = (row: number, column: number): number => table[row]?.[column] ?? 0;
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(
        at(row - 1, column) + 1,
        at(row, column - 1) + 1,
        at(row - 1, column - 1) + cost,
      );
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        best = Math.min(best, at(row - 2, column - 2) + 1);
      }
      const tableRow = table[row];
      if (tableRow) tableRow[column] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate closest to `input`, when it is close enough to be a likely typo
 * (at most a third of the length, and at most 3 edits), or the only candidate that
 * starts with it (`restricted` for `restricted_autonomous`). Case and `-`/`_` are ignored.
 */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  const normalize = (value: string) => value.toLowerCase().replace(/-/g, "_");
  const wanted = normalize(input);
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, normalize(candidate));
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  if (best === undefined) return undefined;
  const limit = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  if (best.distance <= limit) return best.candidate;
  const extending = candidates.filter((candidate) => normalize(candidate).startsWith(wanted));
  return wanted.length >= 3 && extending.length === 1 ? extending[0] : undefined;
}
