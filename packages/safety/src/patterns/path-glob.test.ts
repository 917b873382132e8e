import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PatternBudgetError, PatternSyntaxError } from "./pattern-node.js";
import { compilePathGlob } from "./path-glob.js";

const matches = (pattern: string, file: string, dot = false) =>
  compilePathGlob(pattern, { dot }).matches(file);

describe("path globs", () => {
  it("matches * and ? within a name and ** across directories", () => {
    expect(matches("*.ts", "index.ts")).toBe(true);
    expect(matches("*.ts", "src/index.ts")).toBe(false);
    expect(matches("**/*.ts", "index.ts")).toBe(true);
    expect(matches("**/*.ts", "src/a/b/index.ts")).toBe(true);
    expect(matches("src/**/*.ts", "src/index.ts")).toBe(true);
    expect(matches("a/**/b", "a/b")).toBe(true);
    expect(matches("a/**/b", "a/x/y/b")).toBe(true);
    expect(matches("a/**/b", "a/xb")).toBe(false);
    expect(matches("src/**", "src/a/b")).toBe(true);
    expect(matches("src/**", "src")).toBe(false);
    expect(matches("**", "a/b/c")).toBe(true);
    expect(matches("a**b", "axyb")).toBe(true);
    expect(matches("a**b", "ax/yb")).toBe(false);
    expect(matches("file?.md", "file1.md")).toBe(true);
    expect(matches("file?.md", "file10.md")).toBe(false);
    expect(matches("?", "/")).toBe(false);
  });

  it("reads classes, braces, ranges, extglobs and escapes", () => {
    expect(matches("[ab].txt", "a.txt")).toBe(true);
    expect(matches("[!ab].txt", "a.txt")).toBe(false);
    expect(matches("[^ab].txt", "c.txt")).toBe(true);
    expect(matches("[]]", "]")).toBe(true);
    expect(matches("[[:digit:]]x", "7x")).toBe(true);
    expect(matches("[a-]", "-")).toBe(true);
    expect(matches("[!a]", "/")).toBe(false);
    expect(matches("*.{ts,tsx}", "view.tsx")).toBe(true);
    expect(matches("{src,lib}/**/*.js", "lib/x/y.js")).toBe(true);
    expect(matches("a/{b,c/d}/e", "a/c/d/e")).toBe(true);
    expect(matches("a{b,c{d,e}}f", "acef")).toBe(true);
    expect(matches("{,a}b", "b")).toBe(true);
    expect(matches("x{y}z", "x{y}z")).toBe(true);
    expect(matches("{a,b", "{a,b")).toBe(true);
    expect(matches("{a,[,]}", ",")).toBe(true);
    expect(matches("v{1..3}", "v2")).toBe(true);
    expect(matches("v{1..3}", "v4")).toBe(false);
    expect(matches("v{01..10}", "v07")).toBe(true);
    expect(matches("{a..c}", "b")).toBe(true);
    expect(matches("{0..10..5}", "5")).toBe(true);
    expect(matches("{0..10..5}", "3")).toBe(false);
    expect(matches("@(a|b).md", "b.md")).toBe(true);
    expect(matches("?(x)y", "y")).toBe(true);
    expect(matches("+(ab)", "ababab")).toBe(true);
    expect(matches("*(ab)c", "c")).toBe(true);
    expect(matches("+(a/)x", "a/a/x")).toBe(true);
    expect(matches("!(*.md)", "a.ts")).toBe(true);
    expect(matches("!(*.md)", "a.md")).toBe(false);
    expect(matches("!(a)", "a/b")).toBe(false);
    expect(matches("*.!(md)", "a.mdx")).toBe(true);
    expect(matches("*.!(md)", "a.md")).toBe(false);
    expect(matches("!(a)b", "ab")).toBe(false);
    expect(matches("!(a)b", "b")).toBe(true);
    expect(matches("!(!(a))", "a")).toBe(true);
    expect(matches("a+b(c).txt", "a+b(c).txt")).toBe(true);
    expect(matches("(a|b)", "(a|b)")).toBe(true);
    expect(matches("\\*.md", "*.md")).toBe(true);
    expect(matches("\\*.md", "a.md")).toBe(false);
    expect(matches("\\{a,b}", "{a,b}")).toBe(true);
  });

  it("negates the whole glob with a leading !", () => {
    expect(matches("!a", "a")).toBe(false);
    expect(matches("!a", "b")).toBe(true);
    expect(matches("!!a", "a")).toBe(true);
    expect(compilePathGlob("!src/*", { dot: false }).maxNames).toBeUndefined();
  });

  it("leaves a name's leading dot to the pattern unless dot is on", () => {
    expect(matches("*", ".env")).toBe(false);
    expect(matches("*.ts", ".ts")).toBe(false);
    expect(matches("?env", ".env")).toBe(false);
    expect(matches("[.]env", ".env")).toBe(false);
    expect(matches("!(x)", ".env")).toBe(false);
    expect(matches(".*", ".env")).toBe(true);
    expect(matches("**/*.yml", ".github/ci.yml")).toBe(false);
    expect(matches("a/*", "a/.x")).toBe(false);
    expect(matches(".github/**/*.yml", ".github/workflows/ci.yml")).toBe(true);
    expect(matches("{.github,src}/*", ".github/x")).toBe(true);
    expect(matches("*", ".env", true)).toBe(true);
    expect(matches("**/*.ts", "a/.b/c.ts", true)).toBe(true);
  });

  it("tells the walk its depth bound, dot names and literal base", () => {
    const glob = (pattern: string) => compilePathGlob(pattern, { dot: false });
    expect(glob("src/*.ts").maxNames).toBe(2);
    expect(glob("{a,b/c}/*").maxNames).toBe(3);
    expect(glob("**/*.ts").maxNames).toBeUndefined();
    expect(glob("+(a/)x").maxNames).toBeUndefined();
    expect(glob("!(a)/b").maxNames).toBe(2);
    expect(glob(".github/*").spellsDot).toBe(true);
    expect(glob("src/{.a,b}").spellsDot).toBe(true);
    expect(glob("**/.env").spellsDot).toBe(true);
    expect(glob("*.env").spellsDot).toBe(false);
    expect(glob("src/lib/**/*.ts").base).toBe("src/lib");
    expect(glob("**/*.ts").base).toBe("");
    expect(glob("src/{a,b}/x").base).toBe("src");
    expect(glob("README.md").base).toBe("");
    expect(glob("docs/README.md").base).toBe("docs");
    expect(glob("!src/*.ts").base).toBe("");
  });

  it("reads gitignore rules as git does: no braces, groups or negation", () => {
    const rule = (pattern: string, file: string) =>
      compilePathGlob(pattern, { dot: true, syntax: "gitignore" }).matches(file);
    expect(rule("{a,b}", "{a,b}")).toBe(true);
    expect(rule("{a,b}", "a")).toBe(false);
    expect(rule("@(a)", "@(a)")).toBe(true);
    expect(rule("!a", "!a")).toBe(true);
    expect(rule("*", ".env")).toBe(true);
    expect(rule("**/x", ".a/x")).toBe(true);
  });

  it("refuses what it cannot read, naming the part", () => {
    expect(() => compilePathGlob("[z-a]", { dot: false })).toThrow(PatternSyntaxError);
    expect(() => compilePathGlob("[z-a]", { dot: false })).toThrow("runs backwards");
    expect(() => compilePathGlob("[[:bogus:]]", { dot: false })).toThrow("[:bogus:]");
    expect(() => compilePathGlob("a\\", { dot: false })).toThrow("lone '\\'");
    expect(() => compilePathGlob("{1..100000}", { dot: false })).toThrow("more than 1000");
  });
});

describe("path globs never backtrack", () => {
  // picomatch's regular expressions took 16 s for the first two on one name.
  const hostile = [
    "*a*a*a*a*b",
    `${"*a".repeat(40)}*b`,
    `**/${"*a".repeat(12)}*b`,
    `${"**/a/".repeat(10)}**/b`,
    `${"?*".repeat(30)}b`,
    `${"+(a|aa)".repeat(8)}b`,
    `${"!(a)".repeat(6)}b`,
    `${"{a,*a}".repeat(30)}b`,
  ];

  it("answers at once for names and paths as long as Linux allows", () => {
    const name = "a".repeat(255);
    const deep = `x/${"a/".repeat(1000)}c`;
    for (const pattern of hostile) {
      const glob = compilePathGlob(pattern, { dot: true });
      expect(glob.matches(name), pattern).toBe(false);
      expect(glob.matches(deep), pattern).toBe(false);
    }
  });

  it("stops at its budget rather than running on", () => {
    const glob = compilePathGlob(`${"*a".repeat(200)}*b`, { dot: true, budget: 1000 });
    expect(() => glob.matches("a".repeat(255))).toThrow(PatternBudgetError);
  });
});

describe("path globs against bash's own globbing", () => {
  let root: string;
  const files = [
    "README.md",
    ".env",
    "src/index.ts",
    "src/view.tsx",
    "src/.hidden.ts",
    "src/lib/a.ts",
    "src/lib/deep/b.ts",
    "src/lib/deep/c.md",
    "docs/guide.md",
    "docs/v1/api.md",
    ".github/workflows/ci.yml",
    "a+b(c).txt",
    "file1.md",
    "file10.md",
    "lib/x.js",
  ];
  const patterns = [
    "*",
    "*.md",
    "**/*.ts",
    "src/**/*.ts",
    "src/*/*.ts",
    "**/*.{ts,tsx}",
    "{src,lib}/**/*.js",
    "src/lib/**/b.ts",
    "**/deep/*",
    "file?.md",
    "file[0-9].md",
    "[!f]*.md",
    "*.!(md)",
    "@(src|docs)/*",
    "src/+(lib|deep)/*.ts",
    "**/?(v)[0-9]/*",
    ".*",
    ".github/**/*.yml",
    "**/.*",
    "docs/**/*.md",
  ];

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), "xzatoma-glob-"));
    for (const file of files) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), "");
    }
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("selects the same files for every pattern", () => {
    const script = patterns
      .map(
        (pattern) =>
          `for f in ${pattern}; do [ -f "$f" ] && printf '%s\\n' "$f"; done; printf '\\0'`,
      )
      .join("\n");
    const output = execFileSync(
      "bash",
      ["-O", "globstar", "-O", "extglob", "-O", "nullglob", "-c", script],
      {
        cwd: root,
        encoding: "utf8",
        env: { LC_ALL: "C", HOME: root, PATH: process.env.PATH ?? "" },
      },
    );
    const expected = output.split("\0").slice(0, patterns.length);
    // Most patterns select something: the comparison is not between empty lists.
    expect(expected.filter((list) => list !== "").length).toBeGreaterThan(patterns.length - 2);
    const ours = patterns.map((pattern) => {
      const glob = compilePathGlob(pattern, { dot: false });
      return files
        .filter((file) => glob.matches(file))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        .map((file) => `${file}\n`)
        .join("");
    });
    const bash = expected.map((list) =>
      list
        .split("\n")
        .filter(Boolean)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        .map((file) => `${file}\n`)
        .join(""),
    );
    expect(Object.fromEntries(patterns.map((p, i) => [p, ours[i]]))).toEqual(
      Object.fromEntries(patterns.map((p, i) => [p, bash[i]])),
    );
  });
});
