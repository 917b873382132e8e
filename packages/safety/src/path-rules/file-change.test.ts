import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { INERT_HIDDEN_NAMES, judgeFileChange, type FileChangeKind } from "./file-change.js";
import { NAMED_PATHS } from "./named-paths.js";
import { createRandom, ordinaryName, spelling } from "./path-cases.test-support.js";

const KINDS: readonly FileChangeKind[] = ["write", "delete", "mkdir", "symlink"];
/** git's configuration as the tests set it: no system file, a global file of the test's own. */
let env: Record<string, string>;
let base: string;
let root: string;

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: { ...process.env, ...env }, encoding: "utf8" });
}

const judge = (relative: string, kind: FileChangeKind = "write", options = {}) =>
  judgeFileChange(root, relative, kind, { home: path.join(base, "home"), env, ...options });

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "xz-file-change-")));
  root = path.join(base, "ws");
  mkdirSync(root);
  mkdirSync(path.join(base, "home"));
  writeFileSync(path.join(base, "global.gitconfig"), "");
  env = { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: path.join(base, "global.gitconfig") };
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("judgeFileChange: hidden paths", () => {
  it("needs a person for every hidden path outside the inert list, in every spelling and kind", () => {
    const random = createRandom(25);
    const inert = new Set(INERT_HIDDEN_NAMES);
    for (let round = 0; round < 400; round++) {
      let hidden = `.${ordinaryName(random)}`;
      while (inert.has(hidden)) hidden = `.${ordinaryName(random)}`;
      const before = Array.from({ length: Math.floor(random() * 3) }, () => ordinaryName(random));
      const after = Array.from({ length: Math.floor(random() * 3) }, () => ordinaryName(random));
      const relative = [...before, spelling(hidden, random), ...after].join("/");
      const kind = KINDS[round % KINDS.length] as FileChangeKind;
      const concern = judge(relative, kind);
      expect(concern, `${relative} (${kind})`).toBeDefined();
      expect(["person", "never"], relative).toContain(concern?.protection);
    }
  });

  it("leaves ordinary paths and the inert hidden names alone", () => {
    const random = createRandom(7);
    for (let round = 0; round < 200; round++) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        ordinaryName(random),
      );
      expect(judge(parts.join("/")), parts.join("/")).toBeUndefined();
    }
    for (const name of INERT_HIDDEN_NAMES) {
      expect(judge(name), name).toBeUndefined();
      expect(judge(`src/${name.toUpperCase()}`), name).toBeUndefined();
      // Inert only as a file of an ordinary directory: under a hidden one it is hidden.
      expect(judge(`.config/${name}`)?.protection, name).toBe("person");
    }
  });

  it("reports hidden paths in the sandbox rather than discarding them, unless they are named", () => {
    expect(judge(".venv/lib/python3.12/site-packages/x.py")?.sandbox).toBe("report");
    expect(judge("node_modules/.bin/tsc")?.sandbox).toBe("report");
    expect(judge(".vscode/tasks.json")?.sandbox ?? "discard").toBe("discard");
  });
});

describe("judgeFileChange: named entries", () => {
  it("protects every entry of the one list in every spelling", () => {
    const random = createRandom(3);
    for (const entry of NAMED_PATHS) {
      for (let round = 0; round < 5; round++) {
        const pattern = entry.pattern.replace("*", ordinaryName(random));
        const spelled = pattern
          .split("/")
          .map((part) => (part === "" ? part : spelling(part, random)))
          .join("/");
        const relative = `${ordinaryName(random)}/${spelled}${entry.pattern.endsWith("/") ? ordinaryName(random) : ""}`;
        const concern = judge(relative);
        expect(concern, `${relative} (${entry.pattern})`).toBeDefined();
        expect(concern?.protection).toBe(entry.protection ?? "person");
      }
    }
  });

  it("has a reason for every entry and lists each pattern once", () => {
    const patterns = NAMED_PATHS.map((entry) => entry.pattern.toLowerCase());
    expect(new Set(patterns).size).toBe(patterns.length);
    for (const entry of NAMED_PATHS) expect(entry.reason.length, entry.pattern).toBeGreaterThan(20);
  });

  it.each(["AGENTS.md", "Jenkinsfile", "bitbucket-pipelines.yml", "CLAUDE.md", "GEMINI.md"])(
    "protects the visible entry point %s, which the hidden rule does not cover",
    (name) => {
      expect(judge(`pkg/${name}`)?.protection).toBe("person");
      expect(judge(`pkg/${name}`)?.sandbox ?? "discard").toBe("discard");
    },
  );
});

describe("judgeFileChange: executable files", () => {
  it("needs a person to change a file that is executable now, however it changes", () => {
    for (const kind of KINDS) {
      expect(judge("run.sh", kind, { existingMode: 0o100755 })?.protection).toBe("person");
      expect(judge("run.sh", kind, { existingMode: 0o100100 })?.protection).toBe("person");
      expect(judge("run.sh", kind, { existingMode: 0o100644 })).toBeUndefined();
    }
  });

  it("needs a person for a change that makes an executable file, and not for a directory", () => {
    expect(judge("build/tool", "write", { newMode: 0o100755 })?.sandbox).toBe("report");
    expect(judge("build", "mkdir", { newMode: 0o40755 })).toBeUndefined();
    expect(judge("build", "mkdir", { existingMode: 0o40755 })).toBeUndefined();
  });
});

describe("judgeFileChange: paths git resolves from its configuration", () => {
  beforeEach(() => {
    git(root, "init", "-q");
  });

  it("protects a configured hooks path like .git/hooks, in every spelling", () => {
    git(root, "config", "core.hooksPath", "tools/hooks");
    const random = createRandom(11);
    for (let round = 0; round < 100; round++) {
      const relative = `${spelling("tools", random)}/${spelling("hooks", random)}/${ordinaryName(random)}`;
      expect(judge(relative, KINDS[round % 4])?.protection, relative).toBe("never");
    }
    expect(judge("tools/hooks")?.protection).toBe("never");
    expect(judge("tools/other.sh")).toBeUndefined();
  });

  it("protects a link above a configured path, which would redirect it", () => {
    git(root, "config", "core.hooksPath", "tools/hooks");
    expect(judge("tools", "symlink")?.protection).toBe("never");
    expect(judge("tools", "mkdir")).toBeUndefined();
  });

  it("follows includes, whether or not the included file exists yet, and what they set", () => {
    git(root, "config", "include.path", "../shared.gitconfig");
    git(root, "config", "includeIf.onbranch:main.path", "../branch.gitconfig");
    expect(judge("shared.gitconfig")?.protection).toBe("never");
    expect(judge("branch.gitconfig")?.protection).toBe("never");
    writeFileSync(path.join(root, "shared.gitconfig"), "[core]\n\thooksPath = .hooks2\n");
    expect(judge(".hooks2/pre-commit")?.protection).toBe("never");
  });

  it("protects what a filter, a diff driver or an alias runs", () => {
    git(root, "config", "filter.lint.clean", "sh tools/clean.sh --fast");
    git(root, "config", "diff.bin.textconv", "./textconv");
    git(root, "config", "alias.go", "!node scripts/go.js");
    expect(judge("tools/clean.sh")?.protection).toBe("never");
    expect(judge("textconv")?.protection).toBe("never");
    expect(judge("scripts/go.js")?.protection).toBe("never");
    expect(judge("src/index.ts")).toBeUndefined();
  });

  it("reads the global configuration too: a relative hooks path there applies here", () => {
    writeFileSync(env.GIT_CONFIG_GLOBAL as string, "[core]\n\thooksPath = .githooks-global\n");
    expect(judge(".githooks-global/pre-push")?.protection).toBe("never");
  });

  it("finds the repository above a workspace that is a subdirectory of it", () => {
    git(root, "config", "core.hooksPath", "pkg/hooks");
    mkdirSync(path.join(root, "pkg"));
    const inner = path.join(root, "pkg");
    expect(judgeFileChange(inner, "hooks/pre-commit", "write", { env })?.protection).toBe("never");
  });

  it("reads a linked worktree's configuration through its gitfile and commondir", () => {
    git(root, "config", "user.email", "t@example.invalid");
    git(root, "config", "user.name", "t");
    git(root, "commit", "-q", "--allow-empty", "-m", "x");
    git(root, "config", "core.hooksPath", "hooks");
    const worktree = path.join(base, "wt");
    git(root, "worktree", "add", "-q", worktree);
    expect(judgeFileChange(worktree, "hooks/pre-commit", "write", { env })?.protection).toBe(
      "never",
    );
  });

  it("fails closed: a configuration git cannot parse protects every path", () => {
    writeFileSync(path.join(root, ".git", "config"), "[core\n\thooksPath = x\n");
    const concern = judge("src/index.ts");
    expect(concern?.protection).toBe("person");
    expect(concern?.sandbox ?? "discard").toBe("discard");
    expect(concern?.reason).toMatch(/could not be read/);
  });

  it("notices a changed configuration at the next judgement", () => {
    expect(judge("late/hooks/x")).toBeUndefined();
    git(root, "config", "core.hooksPath", "late/hooks");
    expect(judge("late/hooks/x")?.protection).toBe("never");
  });
});

describe("judgeFileChange: a workspace that holds the home directory", () => {
  it("protects every startup file of the home directory, hidden or in ~/bin", () => {
    const home = path.join(root, "me");
    mkdirSync(home);
    const options = { home, env };
    const at = (relative: string) => judgeFileChange(root, relative, "write", options);
    expect(at("me/.config/anything/init.lua")?.sandbox ?? "discard").toBe("discard");
    expect(at("me/.local/lib/python3.12/site-packages/x.pth")?.sandbox ?? "discard").toBe(
      "discard",
    );
    expect(at("me/bin/git")?.protection).toBe("person");
    expect(at("me/project/src/index.ts")).toBeUndefined();
  });

  it("leaves the home directory's files alone when the workspace is inside it", () => {
    const home = base;
    expect(judgeFileChange(root, "src/index.ts", "write", { home, env })).toBeUndefined();
  });
});
