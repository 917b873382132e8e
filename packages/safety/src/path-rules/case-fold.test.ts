import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { foldName } from "./case-fold.js";

/** Every code point whose full case folding (CaseFolding.txt C+F, Unicode 14) differs from itself. */
const CASE_FOLDING = JSON.parse(
  readFileSync(new URL("./__fixtures__/case-folding.json", import.meta.url), "utf8"),
) as [number, string][];

describe("foldName", () => {
  it("puts every character in the class Unicode full case folding gives it", () => {
    const split = CASE_FOLDING.filter(
      ([codePoint, folded]) => foldName(String.fromCodePoint(codePoint)) !== foldName(folded),
    );
    expect(CASE_FOLDING.length).toBeGreaterThan(1400);
    expect(split).toEqual([]);
  });

  it("is more than toLowerCase: the pairs toLowerCase keeps apart are joined", () => {
    const apart = CASE_FOLDING.filter(
      ([codePoint, folded]) => String.fromCodePoint(codePoint).toLowerCase() !== folded,
    );
    expect(apart.length).toBeGreaterThan(50);
    for (const [codePoint, folded] of apart)
      expect(foldName(String.fromCodePoint(codePoint))).toBe(foldName(folded));
  });

  it.each([
    ["AGENTS.md", "agents.md"],
    ["Stra\u00dfe", "STRASSE"],
    ["\u1e9e", "ss"],
    ["\u212aubeconfig", "kubeconfig"],
    ["\u017fite-packages", "site-packages"],
    ["\ufb01le", "file"],
    ["\uff21GENTS.md", "agents.md"],
    [".g\u200cit", ".git"],
    [".\ufeffgit", ".git"],
    ["AGENTS.md.", "agents.md"],
    ["AGENTS.md . ", "agents.md"],
    ["e\u0301", "\u00e9"],
  ])("folds %j and %j to one name", (a, b) => {
    expect(foldName(a)).toBe(foldName(b));
  });

  it("keeps . and .. and names that differ", () => {
    expect(foldName(".")).toBe(".");
    expect(foldName("..")).toBe("..");
    expect(foldName("agents.md")).not.toBe(foldName("agent.md"));
    expect(foldName(".git")).not.toBe(foldName("git"));
  });
});
