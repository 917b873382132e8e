import { describe, expect, it } from "vitest";
import { GITLEAKS_RULESET } from "./gitleaks-rules.generated.js";
import { translateRe2 } from "./re2-to-js.js";

function compile(
  pattern: string,
  options: Parameters<typeof translateRe2>[1] = { maxRepeat: 4096 },
) {
  const translation = translateRe2(pattern, options);
  return new RegExp(translation.source, translation.flags);
}

describe("translateRe2", () => {
  it("scopes (?i) to the rest of its group, and (?-i:...) and (?i:...) to theirs", () => {
    const scoped = compile(String.raw`\b(p8e-(?i)[a-z0-9]{4})x`);
    expect(scoped.test("p8e-AbC1x")).toBe(true);
    expect(scoped.test("P8E-abc1x")).toBe(false);
    // The flag ends with its group: the x after it is matched case-sensitively again.
    expect(scoped.test("p8e-abc1X")).toBe(false);
    const off = compile(String.raw`(?i)[a-z]+(?-i:ABC)`);
    expect(off.test("xyzABC")).toBe(true);
    expect(off.test("XYZabc")).toBe(false);
    expect(compile("(?i:ab)c").test("ABc")).toBe(true);
    expect(compile("(?i:ab)c").test("ABC")).toBe(false);
  });

  it("uses the i flag when the whole pattern is case-insensitive", () => {
    const translation = translateRe2(String.raw`(?i)\b(npm_[a-z0-9]{4})`, { maxRepeat: 10 });
    expect(translation.flags).toBe("i");
    expect(translation.source).toBe(String.raw`\b(npm_[\da-z]{4})`);
  });

  it("spells out RE2's ASCII classes, POSIX classes, \\z and dot", () => {
    expect(compile(String.raw`a\sb`).test("a\u00a0b")).toBe(false);
    expect(compile(String.raw`a\sb`).test("a\tb")).toBe(true);
    expect(compile("[[:alnum:]]{3}").test("a1Z")).toBe(true);
    expect(compile("[[:alnum:]]{3}").test("a_Z")).toBe(false);
    expect(compile(String.raw`x\z`).test("x\n")).toBe(false);
    expect(compile("a.b").test("a\rb")).toBe(true);
    expect(compile("a.b").test("a\nb")).toBe(false);
    expect(compile("(?s:a.b)").test("a\nb")).toBe(true);
    expect(compile(String.raw`[\x60'"]`).test("`")).toBe(true);
  });

  it("keeps RE2's group numbers, named groups included", () => {
    const translation = translateRe2(String.raw`(?P<alg>a)(?:b)(c)`, { maxRepeat: 10 });
    expect(translation.groups).toBe(2);
    expect(new RegExp(translation.source).exec("abc")?.[2]).toBe("c");
  });

  it("caps unbounded repetitions and reports the longest match", () => {
    const translation = translateRe2("ab+c{2,}", { maxRepeat: 100 });
    expect(translation.source).toBe("ab{1,100}c{2,100}");
    expect(translation.maxLength).toBe(201);
    expect(translateRe2("a+", { maxRepeat: Infinity }).source).toBe("a+");
  });

  it("drops a leading lazy optional prefix and says what it was", () => {
    const translation = translateRe2(String.raw`(?i)[\w.-]{0,50}?(?:adafruit)=([a-z]{4})`, {
      maxRepeat: 10,
      dropLazyPrefix: true,
    });
    expect(translation.source).toBe("(?:adafruit)=([a-z]{4})");
    expect(translation.droppedPrefix).toEqual({ characters: String.raw`[\w\-.]`, max: 50 });
  });

  it("refuses syntax it does not know", () => {
    expect(() => translateRe2(String.raw`\pL`, { maxRepeat: 10 })).toThrow(SyntaxError);
    expect(() => translateRe2("(?=x)", { maxRepeat: 10 })).toThrow(SyntaxError);
    expect(() => translateRe2("(a", { maxRepeat: 10 })).toThrow(SyntaxError);
  });
});

describe("the vendored gitleaks ruleset", () => {
  it("records where it comes from", () => {
    expect(GITLEAKS_RULESET.source).toMatchObject({
      repository: "github.com/gitleaks/gitleaks",
      license: "MIT",
    });
    expect(GITLEAKS_RULESET.source.version).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(GITLEAKS_RULESET.source.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it("compiles every rule and allowlist pattern", () => {
    expect(GITLEAKS_RULESET.rules.length).toBeGreaterThan(200);
    for (const rule of GITLEAKS_RULESET.rules) {
      const regex = new RegExp(rule.pattern, `dg${rule.flags ?? ""}`);
      expect(regex.test(""), rule.id).toBe(false);
      for (const list of rule.allowlists ?? [])
        for (const { pattern, flags } of list.patterns) new RegExp(pattern, flags ?? "");
    }
  });
});
