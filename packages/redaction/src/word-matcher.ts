/**
 * Finds many words in a text in one pass (an Aho-Corasick automaton), ignoring ASCII
 * case. It answers which gitleaks keywords a text holds, and whether a secret holds a
 * stopword, in time linear in the text however many words there are: 214 rules' keywords
 * and 1,500 stopwords would otherwise be 1,700 scans of the text.
 */
export interface WordMatcher {
  /** For each word (in the order given), whether it occurs in `text`. */
  present(text: string): boolean[];
  /** The indices of the words that occur in `text`, each once, in no particular order. */
  found(text: string): number[];
  /** Whether any word occurs in `text`. */
  matchesAny(text: string): boolean;
}

/** Builds the matcher for `words`; words are compared with ASCII letters lower-cased. */
export function createWordMatcher(words: readonly string[]): WordMatcher {
  const lowered = words.map((word) => word.replace(/[A-Z]/g, (char) => char.toLowerCase()));
  // Character classes: one per character the words use, 0 for every other character.
  const classOf = new Map<number, number>();
  for (const word of lowered) {
    for (let index = 0; index < word.length; index += 1) {
      const code = word.charCodeAt(index);
      if (!classOf.has(code)) classOf.set(code, classOf.size + 1);
    }
  }
  const width = classOf.size + 1;
  const asciiClass = new Uint16Array(128);
  for (const [code, value] of classOf) if (code < 128) asciiClass[code] = value;
  for (let code = 65; code <= 90; code += 1) asciiClass[code] = asciiClass[code + 32] ?? 0;
  const classify = (code: number): number =>
    code < 128 ? (asciiClass[code] ?? 0) : (classOf.get(code) ?? 0);

  // The trie: children[state * width + class] is the next state, 0 for none.
  let children = new Int32Array(width * 16);
  const outputs: number[][] = [[]];
  const child = (state: number, symbol: number): number => children[state * width + symbol] ?? 0;
  lowered.forEach((word, wordIndex) => {
    let state = 0;
    for (let index = 0; index < word.length; index += 1) {
      const symbol = classOf.get(word.charCodeAt(index)) ?? 0;
      let next = child(state, symbol);
      if (next === 0) {
        next = outputs.length;
        outputs.push([]);
        if ((next + 1) * width > children.length) {
          const grown = new Int32Array(children.length * 2);
          grown.set(children);
          children = grown;
        }
        children[state * width + symbol] = next;
      }
      state = next;
    }
    if (word.length > 0) outputs[state]?.push(wordIndex);
  });

  // Failure links resolved into a full transition table, breadth first.
  const states = outputs.length;
  const table = new Int32Array(states * width);
  const failure = new Int32Array(states);
  const queue: number[] = [];
  for (let symbol = 0; symbol < width; symbol += 1) {
    const next = child(0, symbol);
    table[symbol] = next;
    if (next !== 0) queue.push(next);
  }
  for (const state of queue) {
    const fail = failure[state] ?? 0;
    outputs[state]?.push(...(outputs[fail] ?? []));
    for (let symbol = 0; symbol < width; symbol += 1) {
      const next = child(state, symbol);
      const fallback = table[fail * width + symbol] ?? 0;
      if (next === 0) {
        table[state * width + symbol] = fallback;
      } else {
        failure[next] = fallback;
        table[state * width + symbol] = next;
        queue.push(next);
      }
    }
  }
  const accepting = outputs.map((list) => list.length > 0);
  const step = (state: number, code: number): number => table[state * width + classify(code)] ?? 0;

  // Which accepting states reported already in the current scan: stamped with the scan's
  // number instead of cleared, so a scan allocates nothing but its answer.
  const reportedIn = new Uint32Array(states);
  let scan = 0;
  const found = (text: string): number[] => {
    scan += 1;
    if (scan === 0xffffffff) {
      reportedIn.fill(0);
      scan = 1;
    }
    const words: number[] = [];
    let state = 0;
    for (let index = 0; index < text.length; index += 1) {
      state = step(state, text.charCodeAt(index));
      // Each accepting state reports its words once: dense text stays linear.
      if (accepting[state] && reportedIn[state] !== scan) {
        reportedIn[state] = scan;
        for (const word of outputs[state] ?? []) words.push(word);
      }
    }
    return words.length > 1 ? [...new Set(words)] : words;
  };

  return {
    present(text) {
      const present = new Array<boolean>(words.length).fill(false);
      for (const word of found(text)) present[word] = true;
      return present;
    },
    found,
    matchesAny(text) {
      let state = 0;
      for (let index = 0; index < text.length; index += 1) {
        state = step(state, text.charCodeAt(index));
        if (accepting[state]) return true;
      }
      return false;
    },
  };
}
