// Spellings of one path that some file system opens as the same file: case, Unicode case
// variants, compatibility forms, zero-width characters, trailing dots. A seeded generator,
// so a failure names a case that can be run again.

/** A small deterministic generator (mulberry32). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTER_VARIANTS: Record<string, readonly string[]> = {
  k: ["k", "K", "\u212a"],
  s: ["s", "S", "\u017f"],
  i: ["i", "I"],
};

/** One random spelling of `name` that folds to the same name. */
export function spelling(name: string, random: () => number): string {
  let out = "";
  for (const character of name) {
    const lower = character.toLowerCase();
    const variants = LETTER_VARIANTS[lower] ?? [lower, character.toUpperCase()];
    const pick = variants[Math.floor(random() * variants.length)] as string;
    // Fullwidth forms fold back (NFKC) for ASCII letters.
    out +=
      /[a-z]/i.test(pick) && random() < 0.15
        ? String.fromCodePoint((pick.codePointAt(0) ?? 0x41) - 0x41 + 0xff21)
        : pick;
    if (random() < 0.05) out += "\u200c";
  }
  return random() < 0.1 ? `${out}.` : out;
}

/** A random ordinary component: letters and digits, never starting with a dot. */
export function ordinaryName(random: () => number): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789_-";
  const length = 1 + Math.floor(random() * 8);
  let name = "";
  for (let index = 0; index < length; index++)
    name += alphabet[Math.floor(random() * alphabet.length)];
  return /^[a-z]/.test(name) ? name : `x${name}`;
}
