import { describe, expect, it } from "vitest";
import { createWordMatcher } from "./word-matcher.js";

describe("createWordMatcher", () => {
  const matcher = createWordMatcher(["he", "she", "his", "hers", "sk_live", "-----BEGIN"]);

  it("reports which words occur, overlapping ones included, ignoring ASCII case", () => {
    expect(matcher.present("uSHErs")).toEqual([true, true, false, true, false, false]);
    expect(matcher.present("key SK_LIVE_x -----begin")).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
    ]);
    expect(matcher.present("")).toEqual([false, false, false, false, false, false]);
  });

  it("lists the words found, each once, and forgets them before the next text", () => {
    const sorted = (words: number[]) => [...words].sort((a, b) => a - b);
    expect(sorted(matcher.found("ushers and hers"))).toEqual([0, 1, 3]);
    // The same states are reached again: the second text must not inherit the first's.
    expect(sorted(matcher.found("hers"))).toEqual([0, 3]);
    expect(matcher.found("nothing")).toEqual([]);
    expect(sorted(matcher.found("he he he"))).toEqual([0]);
  });

  it("answers whether any word occurs", () => {
    expect(matcher.matchesAny("a history")).toBe(true);
    expect(matcher.matchesAny("nothing to see")).toBe(false);
    expect(createWordMatcher([]).matchesAny("anything")).toBe(false);
  });
});
