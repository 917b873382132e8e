import { isErrorCode, isXzatomaError, XzatomaError } from "@xzatoma/errors";
import { describe, expect, it } from "vitest";
import { compileGlob, GlobSyntaxError } from "./glob-pattern.js";

const baseOf = (pattern: string) => compileGlob(pattern, { dot: false }).base;

const matches = (pattern: string, file: string, dot = false, isDirectory = false) =>
  compileGlob(pattern, { dot }).matches(file, isDirectory);

describe("compileGlob", () => {
  it("matches * within one name and ** across directories", () => {
    expect(matches("*.ts", "index.ts")).toBe(true);
    expect(matches("*.ts", "src/index.ts")).toBe(false);
    expect(matches("**/*.ts", "index.ts")).toBe(true);
    expect(matches("**/*.ts", "src/a/b/index.ts")).toBe(true);
    expect(matches("src/**/*.ts", "src/index.ts")).toBe(true);
    expect(matches("src/**/*.ts", "lib/index.ts")).toBe(false);
    expect(matches("src/**", "src/a/b")).toBe(true);
    expect(matches("src/**", "src", false, true)).toBe(false);
    expect(matches("src/**", "src/.hidden")).toBe(false);
    expect(matches("src/**", "src/.hidden", true)).toBe(true);
    expect(matches("**", "a/b/c")).toBe(true);
  });

  it("supports ?, character classes, braces and escapes", () => {
    expect(matches("file?.md", "file1.md")).toBe(true);
    expect(matches("file?.md", "file10.md")).toBe(false);
    expect(matches("[ab].txt", "a.txt")).toBe(true);
    expect(matches("[!ab].txt", "a.txt")).toBe(false);
    expect(matches("[!ab].txt", "c.txt")).toBe(true);
    expect(matches("[a-c]*", "beta")).toBe(true);
    expect(matches("*.{ts,tsx}", "view.tsx")).toBe(true);
    expect(matches("{src,lib}/**/*.js", "lib/x/y.js")).toBe(true);
    expect(matches("\\*.md", "*.md")).toBe(true);
    expect(matches("\\*.md", "a.md")).toBe(false);
    expect(matches("a+b(c).txt", "a+b(c).txt")).toBe(true);
    expect(matches("[1-3].md", "2.md")).toBe(true);
    expect(matches("@(a|b).md", "b.md")).toBe(true);
    expect(matches("!(*.md)", "a.ts")).toBe(true);
    expect(matches("!(*.md)", "a.md")).toBe(false);
  });

  it("skips dot names unless the pattern spells the dot or dot is on", () => {
    expect(matches("**/*.yml", ".github/ci.yml")).toBe(false);
    expect(matches(".github/**/*.yml", ".github/workflows/ci.yml")).toBe(true);
    expect(matches("*", ".env")).toBe(false);
    expect(matches(".*", ".env")).toBe(true);
    expect(matches("*", ".env", true)).toBe(true);
  });

  it("matches only directories for a trailing slash and strips ./", () => {
    expect(matches("src/", "src", false, true)).toBe(true);
    expect(matches("src/", "src", false, false)).toBe(false);
    expect(matches("./src/*.ts", "src/a.ts")).toBe(true);
  });

  it("reports the depth bound and explicit dot segments", () => {
    expect(compileGlob("src/*.ts", { dot: false }).maxDepth).toBe(2);
    expect(compileGlob("{a,b/c}/*", { dot: false }).maxDepth).toBe(3);
    expect(compileGlob("**/*.ts", { dot: false }).maxDepth).toBeUndefined();
    expect(compileGlob(".github/*", { dot: false }).namesDotEntries).toBe(true);
  });

  it("refuses empty, broken and overlong globs", () => {
    expect(() => compileGlob("  ", { dot: false })).toThrow(GlobSyntaxError);
    expect(() => compileGlob("[z-a]", { dot: false })).toThrow(
      "The glob '[z-a]' cannot be used: The range 'z-a' in a character class runs backwards",
    );
    expect(() => compileGlob(`${"{a,".repeat(400)}b${"}".repeat(400)}`, { dot: false })).toThrow(
      "longer than 1024 characters",
    );
  });

  it("refuses with an XzatomaError GLOB_INVALID naming the pattern", () => {
    let caught: unknown;
    try {
      compileGlob("[z-a]", { dot: false });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GlobSyntaxError);
    expect(caught).toBeInstanceOf(XzatomaError);
    expect(isXzatomaError(caught)).toBe(true);
    const error = caught as GlobSyntaxError;
    expect(isErrorCode(error.code)).toBe(true);
    expect(error.code).toBe("GLOB_INVALID");
    expect(error.fields).toEqual({ pattern: "[z-a]" });
  });

  it("matches brace alternatives without expanding them", () => {
    // 2^9 alternatives: braces are one alternation in the automaton, nothing to cap.
    expect(matches("{a,b}".repeat(9), "abababab" + "a")).toBe(true);
    expect(matches("{a,b}".repeat(9), "abababab" + "c")).toBe(false);
  });

  it("treats unbounded patterns as such for the walk", () => {
    expect(compileGlob("!src/*", { dot: false }).maxDepth).toBeUndefined();
    expect(compileGlob("+(a/)x", { dot: false }).maxDepth).toBeUndefined();
  });
});

describe("braces and the literal base", () => {
  it("keeps nested alternatives, literal braces and escapes as glob syntax", () => {
    expect(matches("a{b,c{d,e}}f", "acef")).toBe(true);
    expect(matches("x{y}z", "x{y}z")).toBe(true);
    expect(matches("\\{a,b}", "{a,b}")).toBe(true);
  });

  it("finds the literal leading directories", () => {
    expect(baseOf("src/lib/**/*.ts")).toBe("src/lib");
    expect(baseOf("./src/*.ts")).toBe("src");
    expect(baseOf("**/*.ts")).toBe("");
    expect(baseOf("src/{a,b}/x")).toBe("src");
    expect(baseOf("README.md")).toBe("");
    expect(baseOf("docs/README.md")).toBe("docs");
    expect(baseOf("!src/*.ts")).toBe("");
  });
});
