import { compilePathGlob } from "@xzatoma/safety";
import { describe, expect, it } from "vitest";
import { exemptDirectory, ignoreFile, isIgnored, ruleTest, type IgnoreFile } from "./gitignore.js";

const root = (text: string): IgnoreFile[] => [ignoreFile("", text)];
const at = ignoreFile;

describe("ignoreFile and isIgnored", () => {
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
    const files = root("# comment\n\n\\#hash\r\nspaced   \n\\!bang\n");
    expect(isIgnored(files, "# comment", false)).toBe(false);
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
      ignoreFile("", "*.gen.ts\n"),
      ignoreFile("pkg", "!keep.gen.ts\n/local\n"),
    ];
    expect(isIgnored(files, "pkg/a.gen.ts", false)).toBe(true);
    expect(isIgnored(files, "pkg/keep.gen.ts", false)).toBe(false);
    expect(isIgnored(files, "pkg/local", true)).toBe(true);
    expect(isIgnored(files, "local", true)).toBe(false);
  });

  it("applies a nested file's anchored and directory rules from its own directory", () => {
    const files = [at("", "*.tmp\n"), at("pkg", "/out/\ncache/\n!keep.tmp\n")];
    expect(isIgnored(files, "pkg/out", true)).toBe(true);
    expect(isIgnored(files, "pkg/out", false)).toBe(false); // a file named out stays
    expect(isIgnored(files, "pkg/sub/out", true)).toBe(false); // anchored to pkg/
    expect(isIgnored(files, "pkg/sub/cache", true)).toBe(true); // unanchored: any depth
    expect(isIgnored(files, "cache", true)).toBe(false); // pkg's rules stay in pkg
    expect(isIgnored(files, "pkg/keep.tmp", false)).toBe(false);
    expect(isIgnored(files, "pkg/sub/keep.tmp", false)).toBe(false);
    expect(isIgnored(files, "keep.tmp", false)).toBe(true);
  });

  it("re-includes with a later negation, but not inside an excluded directory", () => {
    const files = root("logs/\n!logs/important.log\n*.gen\n!/a.gen\n");
    expect(isIgnored(files, "logs", true)).toBe(true);
    // git: a file cannot be re-included when a parent directory is excluded.
    expect(isIgnored(files, "logs/important.log", false)).toBe(true);
    expect(isIgnored(files, "a.gen", false)).toBe(false);
    expect(isIgnored(files, "x/a.gen", false)).toBe(true);
  });

  it("is case-sensitive, as git is on Linux", () => {
    const files = root("Build/\n");
    expect(isIgnored(files, "Build", true)).toBe(true);
    expect(isIgnored(files, "build", true)).toBe(false);
  });

  it("re-includes a directory named on purpose, keeping the rules for what is inside", () => {
    const file = ignoreFile("", "gen/\n*.log\ngen/skip/**\n");
    expect(isIgnored([file], "gen/a.ts", false)).toBe(true);
    const exempt = [exemptDirectory(file, "gen")];
    expect(isIgnored(exempt, "gen", true)).toBe(false);
    expect(isIgnored(exempt, "gen/a.ts", false)).toBe(false);
    expect(isIgnored(exempt, "gen/a.log", false)).toBe(true);
    expect(isIgnored(exempt, "gen/skip/x.ts", false)).toBe(true);
    const odd = ignoreFile("", "*\n");
    expect(isIgnored([exemptDirectory(odd, "w[1]*")], "w[1]*", true)).toBe(false);
    expect(isIgnored([exemptDirectory(odd, "w[1]*")], "w1x", true)).toBe(true);
  });

  it("compares plain names and '*' endings as strings exactly as the pattern automaton decides them", () => {
    const patterns = [
      "node_modules",
      "dist",
      "a.b",
      "docs/tmp",
      "*",
      "*.log",
      "*log",
      "**.log",
      "*.{js}",
      "*]",
      "a{b}",
      "é*",
      "*é",
      "*.log/x",
      "?.log",
      "[ab].log",
      "\\*.log",
      "*.l?g",
    ];
    const subjects = [
      "",
      "node_modules",
      "node_modules2",
      "xnode_modules",
      "dist",
      "a.b",
      "a",
      ".log",
      "a.log",
      "a.log.x",
      "x/a.log",
      "docs/tmp",
      "docs/tmp/x",
      "log",
      "alog",
      "*.log",
      "a.{js}",
      "a]",
      "a{b}",
      "é",
      "éa",
      "aé",
      ".hidden.log",
      "dir/",
      "a.lg",
      "b.log",
    ];
    for (const pattern of patterns) {
      const glob = compilePathGlob(pattern, { dot: true, syntax: "gitignore" });
      const test = ruleTest(pattern);
      for (const subject of subjects)
        expect(test(subject), `${pattern} against '${subject}'`).toBe(glob.matches(subject));
    }
  });
});
