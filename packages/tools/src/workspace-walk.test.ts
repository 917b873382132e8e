import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { globby } from "globby";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { walkWorkspace, type WalkEntry } from "./workspace-walk.js";

let base: string;
let root: string;

async function put(relative: string, content = "x\n"): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

async function walk(options: { start?: string; hidden?: boolean; maxEntries?: number } = {}) {
  const entries: WalkEntry[] = [];
  const summary = await walkWorkspace(
    {
      root,
      start: path.join(root, options.start ?? ""),
      gitignore: true,
      hidden: options.hidden ?? true,
      maxEntries: options.maxEntries ?? 10_000,
    },
    (entry) => entries.push(entry),
  );
  return { entries, summary };
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-walk-")));
  root = path.join(base, "ws");
  await put(".gitignore", "*.log\nbuild/\n/top-only.txt\n!keep.log\nnode_modules\n");
  await put("top-only.txt");
  await put("src/top-only.txt");
  await put("src/a.ts");
  await put("src/a.log");
  await put("src/keep.log");
  await put("build/out.js");
  await put("node_modules/pkg/index.js");
  await put("pkg/.gitignore", "generated/\n*.tmp\n!important.tmp\n");
  await put("pkg/generated/x.ts");
  await put("pkg/y.tmp");
  await put("pkg/important.tmp");
  await put("pkg/z.ts");
  await put("docs/build", "a file named build is not a directory\n");
  await put(".hidden/secret.ts");
  execFileSync("git", ["init", "--quiet", root]);
  await mkdir(path.join(base, "outside"));
  await put("../outside/far.ts");
  await symlink(path.join(base, "outside"), path.join(root, "link"));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("walkWorkspace", () => {
  it("keeps the files git does not ignore", async () => {
    const { entries, summary } = await walk();
    const files = entries
      .filter((entry) => entry.kind !== "directory")
      .map((entry) => entry.relative);
    const untracked = execFileSync("git", ["ls-files", "--others", "--exclude-standard", "-z"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(files.sort()).toEqual(untracked.split("\0").filter(Boolean).sort());
    expect(summary).toEqual({ entries: entries.length, complete: true });
  });

  it("agrees with globby with gitignore: true, except that git ignores no file for 'build/'", async () => {
    const files = (await walk()).entries
      .filter((entry) => entry.kind === "file")
      .map((entry) => entry.relative);
    const expected = await globby("**", {
      cwd: root,
      gitignore: true,
      dot: true,
      followSymbolicLinks: false,
      ignore: [".git/**"],
    });
    expect(files.filter((file) => file !== "docs/build").sort()).toEqual(expected.sort());
  });

  it("reads a .gitignore only when it is a regular file: never through a link, never a FIFO", async () => {
    const outside = path.join(base, "outside", "rules");
    await writeFile(outside, "alice\nbob\n");
    for (const name of ["t/alice", "t/bob", "t/carol", "t/sub/alice", "u/alice", "u/bob"])
      await put(name);
    await symlink(outside, path.join(root, "t", ".gitignore"));
    await symlink(outside, path.join(root, "u", ".gitignore"));
    execFileSync("mkfifo", [path.join(root, "t", "sub", ".gitignore")]);
    // The walks finish (a FIFO would block them) and no rule from outside applies, whether
    // the link is in the starting directory or below it.
    for (const start of ["t", ""]) {
      const { entries } = await walk({ start, hidden: false });
      const names = entries.map((entry) => entry.relative).filter((name) => /^[tu]\//.test(name));
      expect(names.sort()).toEqual([
        "t/alice",
        "t/bob",
        "t/carol",
        "t/sub",
        "t/sub/alice",
        ...(start === "" ? ["u/alice", "u/bob"] : []),
      ]);
    }
  });

  it("reports symlinks without following them and never enters .git", async () => {
    const { entries } = await walk();
    expect(entries).toContainEqual({ relative: "link", kind: "symlink" });
    expect(entries.some((entry) => entry.relative.startsWith("link/"))).toBe(false);
    expect(
      entries.some((entry) => entry.relative === ".git" || entry.relative.startsWith(".git/")),
    ).toBe(false);
  });

  it("skips dot names when hidden is off and applies parent .gitignore files to a subdirectory start", async () => {
    const hidden = (await walk({ hidden: false })).entries.map((entry) => entry.relative);
    expect(hidden).not.toContain(".hidden/secret.ts");
    const fromPkg = (await walk({ start: "pkg" })).entries.map((entry) => entry.relative);
    expect(fromPkg.sort()).toEqual(
      [".gitignore", "important.tmp", "z.ts"].map((name) => `pkg/${name}`),
    );
    const fromSrc = (await walk({ start: "src" })).entries.map((entry) => entry.relative);
    expect(fromSrc.sort()).toEqual(["src/a.ts", "src/keep.log", "src/top-only.txt"]);
  });

  it("agrees with git on nested files, negation and directory-only rules", async () => {
    await put(
      "nested/.gitignore",
      "/only-here.txt\n*.cache\n!keep.cache\nlogs/\n!logs/x.txt\nout\n",
    );
    await put("nested/only-here.txt");
    await put("nested/deeper/only-here.txt"); // anchored rule: not ignored here
    await put("nested/a.cache");
    await put("nested/keep.cache");
    await put("nested/deeper/b.cache");
    await put("nested/logs/x.txt"); // a negation cannot reach into an ignored directory
    await put("nested/deeper/logs", "a file, not a directory\n"); // logs/ spares files
    await put("nested/out/y.txt");
    await put("nested/deeper/.gitignore", "!*.cache\n*.txt\n");
    await put("nested/deeper/c.cache"); // re-included one level down
    await put("nested/deeper/d.md");
    await put("other/a.cache", "x\n"); // nested's rules stay in nested
    await put("CaseSensitive.LOG"); // *.log does not match .LOG
    const files = (await walk()).entries
      .filter((entry) => entry.kind !== "directory")
      .map((entry) => entry.relative)
      .sort();
    const untracked = execFileSync("git", ["ls-files", "--others", "--exclude-standard", "-z"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(files).toEqual(untracked.split("\0").filter(Boolean).sort());
    expect(files.filter((file) => file.startsWith("nested/"))).toEqual([
      "nested/.gitignore",
      "nested/deeper/.gitignore",
      "nested/deeper/b.cache",
      "nested/deeper/c.cache",
      "nested/deeper/d.md",
      "nested/deeper/logs",
      "nested/keep.cache",
    ]);
    expect(files).toContain("other/a.cache");
    expect(files).toContain("CaseSensitive.LOG");
  });

  it("agrees with git on wildmatch rules: classes, globstars, escapes and spaces", async () => {
    await put(
      "wild/.gitignore",
      [
        "[abc].txt",
        "[!x]?.md",
        "n[[:digit:]]*.out",
        "deep/**/z.bin",
        "**/only/*.js",
        "sp\\ ace ",
        "trail   ",
        "\\!bang",
        "\\#hash",
        "{a,b}.brace",
        "lit*ral/",
        "/anch/**",
        "*.tmp",
        "!keep[0-9].tmp",
      ].join("\n"),
    );
    const files = [
      "a.txt",
      "d.txt",
      "yy.md",
      "xy.md",
      "n7x.out",
      "nx.out",
      "deep/z.bin",
      "deep/1/2/z.bin",
      "deep/1/y.bin",
      "q/only/a.js",
      "only/b.js",
      "only/c/d.js",
      "sp ace",
      "trail",
      "!bang",
      "#hash",
      "{a,b}.brace",
      "a.brace",
      "literal/x",
      "lit-x-ral/y",
      "anch/m/n",
      "x/anch/m",
      "t.tmp",
      "keep1.tmp",
      "keepx.tmp",
    ];
    for (const file of files) await put(`wild/${file}`);
    const walked = (await walk()).entries
      .filter((entry) => entry.kind !== "directory" && entry.relative.startsWith("wild/"))
      .map((entry) => entry.relative)
      .sort();
    const untracked = execFileSync(
      "git",
      ["ls-files", "--others", "--exclude-standard", "-z", "--", "wild"],
      { cwd: root, encoding: "utf8" },
    );
    expect(walked).toEqual(untracked.split("\0").filter(Boolean).sort());
    // The rules did something: most of the files are ignored.
    expect(walked.length).toBeLessThan(files.length / 2);
  });

  it("walks a deep tree under hostile .gitignore rules without stalling", async () => {
    // As regular expressions (the `ignore` package) the first rule took 26 s on one path.
    await put(
      ".gitignore",
      `x/**/a/**/a/**/a/**/b\n**/x/**/a/**/a/**/a/**/a/**/b\n${"*a".repeat(30)}*b\n`,
    );
    await put(`x/${"a/".repeat(200)}leaf.txt`);
    await put(`${"a".repeat(250)}.txt`);
    const { entries } = await walk();
    expect(entries.map((entry) => entry.relative)).toContain(`x/${"a/".repeat(200)}leaf.txt`);
    expect(entries.map((entry) => entry.relative)).toContain(`${"a".repeat(250)}.txt`);
  });

  it("stops at maxEntries", async () => {
    const { entries, summary } = await walk({ maxEntries: 3 });
    expect(entries).toHaveLength(3);
    expect(summary.complete).toBe(false);
  });
});
