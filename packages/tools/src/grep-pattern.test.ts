import { describe, expect, it } from "vitest";
import { compileGrepPattern, literalText, requiredRuns, requiredText } from "./grep-pattern.js";

describe("grep patterns", () => {
  it("recognises plain text, escaped punctuation included", () => {
    expect(literalText("useEffect")).toBe("useEffect");
    expect(literalText("a\\.b\\(c\\)")).toBe("a.b(c)");
    expect(literalText("a.b")).toBeNull();
    expect(literalText("\\d+")).toBeNull();
  });

  it("finds the runs every match must contain", () => {
    expect(requiredRuns("function\\s+handle[A-Z]\\w*Event\\(")).toEqual([
      "function",
      "handle",
      "Event(",
    ]);
    expect(requiredRuns("colou?r")).toEqual(["colo", "r"]);
    expect(requiredRuns("ab+c")).toEqual(["ab", "c"]);
    expect(requiredRuns("x{0,2}yz{2}w")).toEqual(["yz", "w"]);
    expect(requiredRuns("(foo|bar)baz")).toEqual(["baz"]);
    expect(requiredRuns("foo|bar")).toEqual([]);
    expect(requiredRuns("[|]abc")).toEqual(["abc"]);
  });

  it("searches by the tail that starts with the rarest character", () => {
    expect(requiredText("function\\s+handle[A-Z]\\w*Event\\(")).toBe("Event(");
    expect(requiredText("useEffect")).toBe("Effect");
    expect(requiredText("ab")).toBeNull();
    expect(requiredText("a|bcd")).toBeNull();
  });

  it("drops required text when case does not matter and keeps lookarounds line by line", () => {
    const insensitive = compileGrepPattern("Needle", false);
    expect(insensitive.ok && insensitive.pattern).toMatchObject({
      flags: "i",
      literal: null,
      required: null,
    });
    const lookahead = compileGrepPattern("foo(?!bar)", true);
    expect(lookahead.ok && lookahead.pattern).toMatchObject({ prefilter: false, required: "foo" });
    expect(compileGrepPattern("[", true)).toMatchObject({ ok: false });
  });
});
