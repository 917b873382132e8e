import { describe, expect, it } from "vitest";
import { codePoints, compileAutomaton } from "./automaton.js";
import { parseGlob } from "./glob-syntax.js";
import { SLASH, type PatternNode } from "./pattern-node.js";

/**
 * A tiny backtracking matcher: the reference, fine for short texts. A wildcard at a name
 * start that holds a `.` (dot off) matches nothing there, not even the empty run.
 */
function reference(nodes: readonly PatternNode[], text: readonly number[], dot: boolean): boolean {
  const nameStart = (i: number) => i === 0 || text[i - 1] === SLASH;
  const leadingDot = (i: number) => !dot && nameStart(i) && text[i] === 0x2e;
  const reads = (i: number) => i < text.length && text[i] !== SLASH && !leadingDot(i);
  const go = (list: readonly PatternNode[], n: number, i: number): boolean => {
    if (n === list.length) return i === text.length;
    const node = list[n] as PatternNode;
    switch (node.kind) {
      case "char":
        return text[i] === node.code && go(list, n + 1, i + 1);
      case "any":
        return reads(i) && go(list, n + 1, i + 1);
      case "class":
        return reads(i) && node.test(text[i] as number) && go(list, n + 1, i + 1);
      case "star": {
        if (leadingDot(i)) return false;
        for (let j = i; ; j++) {
          if (go(list, n + 1, j)) return true;
          if (j >= text.length || text[j] === SLASH) return false;
        }
      }
      case "globstar": {
        if (go(list, n + 1, i)) return true;
        if (!reads(i)) return false;
        // one name, its `/`, then the globstar again
        for (let j = i + 1; j < text.length; j++) if (text[j] === SLASH) return go(list, n, j + 1);
        return false;
      }
      case "group": {
        const rest = list.slice(n + 1);
        return node.alternatives.some((alternative) => go([...alternative, ...rest], 0, i));
      }
    }
  };
  return go(nodes, 0, 0);
}

/** A small deterministic pseudo-random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

describe("the automaton", () => {
  it("agrees with a backtracking reference on random globs and paths", () => {
    const next = random(7);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
    const pieces = ["a", "b", ".", "/", "*", "?", "[ab]", "[!a]", "**/", "{a,b/}"];
    const letters = ["a", "b", ".", "/"];
    let compared = 0;
    let matched = 0;
    for (let round = 0; round < 600; round++) {
      const pattern = Array.from({ length: 1 + Math.floor(next() * 6) }, () => pick(pieces)).join(
        "",
      );
      const nodes = parseGlob(codePoints(pattern), { braces: true, extglob: false });
      for (const dot of [false, true]) {
        const dfa = compileAutomaton(nodes, { paths: true, dot });
        const states = compileAutomaton(nodes, { paths: true, dot, engine: "states" });
        for (let t = 0; t < 8; t++) {
          const text = Array.from({ length: Math.floor(next() * 7) }, () => pick(letters)).join("");
          if (text.startsWith("/") || text.endsWith("/") || text.includes("//")) continue;
          const expected = reference(nodes, codePoints(text), dot);
          expect(dfa.matches(text), `${pattern} ~ ${text} (dot ${dot})`).toBe(expected);
          expect(states.matches(text), `${pattern} ~ ${text} (dot ${dot}, states)`).toBe(expected);
          compared++;
          if (expected) matched++;
        }
      }
    }
    // Enough cases on both sides for the comparison to mean something.
    expect(compared).toBeGreaterThan(3000);
    expect(matched).toBeGreaterThan(300);
  });

  it("stays right when its table starts over", () => {
    // `*a` and 12 `?`: a DFA needs 2^13 states for this; the table holds 2,048.
    const nodes = parseGlob(codePoints(`*a${"?".repeat(12)}`), { braces: false, extglob: false });
    const dfa = compileAutomaton(nodes, { paths: false, dot: true });
    const states = compileAutomaton(nodes, { paths: false, dot: true, engine: "states" });
    const next = random(11);
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: 30 }, () => (next() < 0.5 ? "a" : "b")).join("");
      expect(dfa.matches(text), text).toBe(states.matches(text));
    }
  });

  it("gives non-ASCII characters their own columns", () => {
    const nodes = parseGlob(codePoints("[é-ü]?😀*"), { braces: false, extglob: false });
    const dfa = compileAutomaton(nodes, { paths: true, dot: false });
    expect(dfa.matches("ñx😀")).toBe(true);
    expect(dfa.matches("ñ😀😀tail")).toBe(true);
    expect(dfa.matches("ax😀")).toBe(false);
    expect(dfa.matches("ñx😁")).toBe(false);
  });
});
