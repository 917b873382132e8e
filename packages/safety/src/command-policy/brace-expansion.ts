/**
 * Expands `{a,b}` and `{1..3}` the way bash does, for guesses only; at most `limit` words.
 */
export function braceExpand(text: string, limit = 64): string[] {
  const results: string[] = [];
  const pending = [text];
  for (let current = pending.shift(); current !== undefined; current = pending.shift()) {
    if (results.length + pending.length >= limit) {
      results.push(current);
      continue;
    }
    const expansion = firstBrace(current);
    if (expansion === null) results.push(current);
    else
      for (const alternative of expansion.alternatives)
        pending.push(expansion.prefix + alternative + expansion.suffix);
  }
  return results;
}

function sequence(body: string): string[] | null {
  const numbers = /^(-?\d{1,6})\.\.(-?\d{1,6})$/.exec(body);
  if (numbers === null) return null;
  const from = Number(numbers[1]);
  const to = Number(numbers[2]);
  const step = from <= to ? 1 : -1;
  const values: string[] = [];
  for (let value = from; values.length < 64; value += step) {
    values.push(String(value));
    if (value === to) break;
  }
  return values;
}

function firstBrace(
  text: string,
): { prefix: string; alternatives: string[]; suffix: string } | null {
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    let depth = 0;
    let last = start;
    const alternatives: string[] = [];
    for (let i = start; i < text.length; i++) {
      const c = text.charAt(i);
      if (c === "{") depth += 1;
      else if (c === "," && depth === 1) {
        alternatives.push(text.slice(last + 1, i));
        last = i;
      } else if (c === "}" && --depth === 0) {
        const body = text.slice(start + 1, i);
        const listed =
          alternatives.length > 0 ? [...alternatives, text.slice(last + 1, i)] : sequence(body);
        if (listed !== null)
          return { prefix: text.slice(0, start), alternatives: listed, suffix: text.slice(i + 1) };
        break;
      }
    }
  }
  return null;
}
