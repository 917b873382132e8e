/**
 * Matches a whole name against a `*`/`?` wildcard (list_directory's `pattern`) without a
 * regular expression. A regex such as `^[^/]*a[^/]*a[^/]*a[^/]*b$` backtracks: against a
 * 200-character name of `a`s it ran for 20 s on the main thread, where no tool timeout can
 * stop it. This is the classic greedy match with one saved position for the last `*`:
 * O(pattern x name) at worst, linear in practice, whatever the pattern.
 *
 * `*` matches any run of characters (a name holds no `/`), `?` exactly one; every other
 * character stands for itself. Characters are compared by code point.
 */
export function matchesWildcard(pattern: string, name: string): boolean {
  const wanted = [...pattern];
  const given = [...name];
  let p = 0;
  let n = 0;
  let star = -1; // the pattern position after the last `*` seen
  let resume = 0; // the name position that `*` is matched up to
  while (n < given.length) {
    const token = wanted[p];
    if (token === "*") {
      star = ++p;
      resume = n;
    } else if (token !== undefined && (token === "?" || token === given[n])) {
      p++;
      n++;
    } else if (star >= 0) {
      // Let the last `*` take one more character and try the rest again from there.
      p = star;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (wanted[p] === "*") p++;
  return p === wanted.length;
}

/** A name filter for `pattern`, see {@link matchesWildcard}. */
export function wildcardMatcher(pattern: string): (name: string) => boolean {
  return (name) => matchesWildcard(pattern, name);
}
