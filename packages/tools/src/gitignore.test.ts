import { describe, expect, it } from "vitest";
import { isIgnored, parseGitignore, type IgnoreFile } from "./gitignore.js";

const root = (text: string): IgnoreFile[] => [{ base: "", rules: parseGitignore(text) }];

describe("parseGitignore and isIgnored", () => {
  it("matches unanchored names at any depth and anchored paths from the file's directory", () => {
    const files = root("*.log\n/build\ndocs/tmp\n");
    expect(isIgnored(files, "a.log", false)).toBe(true);
    expect(isIgnored(files, "deep/dir/a.log", false)).toBe(true);
    expect(isIgnored(files, "build", true)).toBe(true);
    expect(isIgnored(files, "src/build", true)).toBe(false);
    expect(isIgnored(files, "docs/tmp", true)).toBe(true);
    expect(isIgnored(files, "x/docs/tmp", true)).toBe(false);
  });

  it("applies trailing-slash rules to directories only and honours negation", () => {
    const files = root("out/\n*.txt\n!keep.txt\n");
    expect(isIgnored(files, "out", true)).toBe(true);
    expect(isIgnored(files, "out", false)).toBe(false);
    expect(isIgnored(files, "a.txt", false)).toBe(true);
    expect(isIgnored(files, "keep.txt", false)).toBe(false);
  });

  it("skips comments and blank lines, handles escapes, CRLF and trailing spaces", () => {
    const rules = parseGitignore("# comment\n\n\\#hash\r\nspaced   \n\\!bang\n");
    expect(rules).toHaveLength(3);
    const files: IgnoreFile[] = [{ base: "", rules }];
    expect(isIgnored(files, "#hash", false)).toBe(true);
    expect(isIgnored(files, "spaced", false)).toBe(true);
    expect(isIgnored(files, "!bang", false)).toBe(true);
  });

  it("supports ** in the middle and at the end", () => {
    const files = root("a/**/z\nlogs/**\n");
    expect(isIgnored(files, "a/z", false)).toBe(true);
    expect(isIgnored(files, "a/b/c/z", false)).toBe(true);
    expect(isIgnored(files, "logs/x/y.txt", false)).toBe(true);
    expect(isIgnored(files, "logs", true)).toBe(false);
  });

  it("lets a deeper file override a shallower one", () => {
    const files: IgnoreFile[] = [
      { base: "", rules: parseGitignore("*.gen.ts\n") },
      { base: "pkg", rules: parseGitignore("!keep.gen.ts\n/local\n") },
    ];
    expect(isIgnored(files, "pkg/a.gen.ts", false)).toBe(true);
    expect(isIgnored(files, "pkg/keep.gen.ts", false)).toBe(false);
    expect(isIgnored(files, "pkg/local", true)).toBe(true);
    expect(isIgnored(files, "local", true)).toBe(false);
  });
});
