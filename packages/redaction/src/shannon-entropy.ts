/**
 * The Shannon entropy of `text` in bits per character, as gitleaks computes it for its
 * `entropy` thresholds: `-sum(p * log2(p))` over the frequency of each character.
 */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const frequency = count / text.length;
    entropy -= frequency * Math.log2(frequency);
  }
  return entropy;
}
