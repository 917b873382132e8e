/** Sets of characters as sorted ranges of code points, and the classes RE2 defines. */
export type CodeRange = readonly [number, number];

export const DIGIT: CodeRange[] = [[0x30, 0x39]];
export const WORD: CodeRange[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
export const SPACE: CodeRange[] = [
  [0x09, 0x0a],
  [0x0c, 0x0d],
  [0x20, 0x20],
];
export const POSIX: Record<string, CodeRange[]> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: DIGIT,
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: WORD,
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};
export const MAX_CODE_POINT = 0x10ffff;

/** Sorted, merged ranges. */
export function normalize(ranges: readonly CodeRange[]): CodeRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [low, high] of sorted) {
    const last = merged.at(-1);
    if (last && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else merged.push([low, high]);
  }
  return merged;
}

/** Every code point not in `ranges`. */
export function complement(ranges: readonly CodeRange[]): CodeRange[] {
  const result: CodeRange[] = [];
  let next = 0;
  for (const [low, high] of normalize(ranges)) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

/** Whether `ranges` holds every code point of `subset`. */
export function contains(ranges: readonly CodeRange[], subset: readonly CodeRange[]): boolean {
  return subset.every(([low, high]) => ranges.some(([from, to]) => from <= low && high <= to));
}

/** `ranges` without `removed`, both normalized. */
export function subtract(ranges: readonly CodeRange[], removed: readonly CodeRange[]): CodeRange[] {
  const kept = complement(removed);
  const result: CodeRange[] = [];
  for (const [low, high] of ranges) {
    for (const [from, to] of kept) {
      const start = Math.max(low, from);
      const end = Math.min(high, to);
      if (start <= end) result.push([start, end]);
    }
  }
  return result;
}
