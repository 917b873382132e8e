// The one judgement of every file change, as the file tools apply it: ordinary changes run
// unasked in every tool; hidden paths, executable files and the paths git resolves from its
// configuration need a person (or are refused), whatever their spelling.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { HomeWorkspaceError, INERT_HIDDEN_NAMES } from "@xzatoma/safety";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "./file-tools.test-support.js";
import { createWorkspaceContext } from "./workspace-context.js";

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await createTestWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

/** A small deterministic generator (mulberry32), so a failing case can be run again. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One spelling of `name` that a case-insensitive file system opens as `name`. */
function spelling(name: string, random: () => number): string {
  const variants: Record<string, readonly string[]> = {
    k: ["k", "K", "\u212a"],
    s: ["s", "S", "\u017f"],
  };
  let out = "";
  for (const character of name) {
    const lower = character.toLowerCase();
    const choices = variants[lower] ?? [lower, character.toUpperCase()];
    out += choices[Math.floor(random() * choices.length)] as string;
    if (random() < 0.05) out += "\u200d";
  }
  return out;
}

function word(random: () => number): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let name = "";
  for (let index = 0, length = 2 + Math.floor(random() * 6); index < length; index++)
    name += letters[Math.floor(random() * letters.length)];
  return name;
}

const needsPerson = (assessment: { verdict: string; requiresPerson?: boolean }) =>
  assessment.verdict === "block" ||
  (assessment.verdict === "confirm" && assessment.requiresPerson === true);

function git(...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], {
    cwd: ws.root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("every file tool needs a person for hidden paths", () => {
  it("in every spelling, for writes, edits, new directories, deletions, copies and moves", async () => {
    const random = createRandom(2025);
    const inert = new Set(INERT_HIDDEN_NAMES);
    for (let round = 0; round < 60; round++) {
      let hidden = `.${word(random)}`;
      while (inert.has(hidden)) hidden = `.${word(random)}`;
      const relative = [
        ...(random() < 0.5 ? [word(random)] : []),
        spelling(hidden, random),
        ...(random() < 0.5 ? [word(random)] : []),
        `${word(random)}.txt`,
      ].join("/");
      await ws.write(relative, "old\n");
      const calls: [string, Record<string, unknown>][] = [
        ["write_file", { path: relative, content: "new\n" }],
        ["write_file", { path: `${relative}.new`, content: "new\n" }],
        ["edit_file", { path: relative, mode: "edit", old_text: "old", content: "new" }],
        ["edit_file", { path: relative, mode: "append", content: "more" }],
        ["create_directory", { path: `${relative}.d` }],
        ["delete_path", { path: relative }],
        ["copy_path", { source: "README.md", destination: `${relative}.copy` }],
        ["move_path", { source: relative, destination: `moved-${String(round)}.txt` }],
        ["move_path", { source: "src/index.ts", destination: `${relative}.moved` }],
      ];
      for (const [tool, input] of calls) {
        const assessment = await ws.assess(tool, input);
        expect(
          needsPerson(assessment),
          `${tool} ${JSON.stringify(input)}: ${assessment.verdict}`,
        ).toBe(true);
      }
    }
  });

  it("leaves the inert hidden names and ordinary paths to run unasked in every tool", async () => {
    await ws.write("notes.txt", "old\n");
    for (const [tool, input] of [
      ["write_file", { path: ".gitignore", content: "dist/\n" }],
      ["write_file", { path: "src/.editorconfig", content: "root = true\n" }],
      ["write_file", { path: "notes.txt", content: "new\n" }],
      ["edit_file", { path: "notes.txt", mode: "overwrite", content: "x" }],
      ["edit_file", { path: "notes.txt", mode: "edit", old_text: "old", content: "new" }],
      ["create_directory", { path: "build/out" }],
      ["delete_path", { path: "notes.txt" }],
      ["copy_path", { source: "src", destination: "src2" }],
      ["move_path", { source: "src", destination: "lib" }],
    ] as const) {
      expect((await ws.assess(tool, input)).verdict, `${tool} ${JSON.stringify(input)}`).toBe(
        "allow",
      );
    }
  });
});

describe("the file tools never make an executable file without a person", () => {
  beforeEach(async () => {
    await ws.write("run.sh", "#!/bin/sh\necho run\n");
    await chmod(ws.at("run.sh"), 0o755);
  });

  it("changing, moving or deleting an executable file needs a person", async () => {
    for (const [tool, input] of [
      ["write_file", { path: "run.sh", content: "#!/bin/sh\necho pwned\n" }],
      ["edit_file", { path: "run.sh", mode: "edit", old_text: "run", content: "pwned" }],
      ["edit_file", { path: "run.sh", mode: "append", content: "echo pwned" }],
      ["delete_path", { path: "run.sh" }],
      ["move_path", { source: "run.sh", destination: "ci.sh" }],
      ["copy_path", { source: "README.md", destination: "run.sh", overwrite: true }],
    ] as const) {
      const assessment = await ws.assess(tool, input);
      expect(needsPerson(assessment), `${tool}: ${assessment.reason}`).toBe(true);
      expect(assessment.reason).toContain("executable");
    }
  });

  it("copy_path drops execute bits, so a copy runs unasked and is not executable", async () => {
    await ws.write("bin/tool", "#!/bin/sh\n");
    await chmod(ws.at("bin/tool"), 0o755);
    expect(
      (await ws.assess("copy_path", { source: "run.sh", destination: "copy.sh" })).verdict,
    ).toBe("allow");
    expect((await ws.call("copy_path", { source: "run.sh", destination: "copy.sh" })).success).toBe(
      true,
    );
    expect((await ws.call("copy_path", { source: "bin", destination: "bin2" })).success).toBe(true);
    expect((await stat(ws.at("copy.sh"))).mode & 0o7111).toBe(0);
    expect((await stat(ws.at("bin2/tool"))).mode & 0o7111).toBe(0);
    expect(await readFile(ws.at("copy.sh"), "utf8")).toBe("#!/bin/sh\necho run\n");
  });

  it("a write never sets an execute bit", async () => {
    expect((await ws.call("write_file", { path: "new.sh", content: "#!/bin/sh\n" })).success).toBe(
      true,
    );
    expect(
      (await ws.call("edit_file", { path: "new2.sh", mode: "create", content: "#!/bin/sh\n" }))
        .success,
    ).toBe(true);
    expect((await stat(ws.at("new.sh"))).mode & 0o111).toBe(0);
    expect((await stat(ws.at("new2.sh"))).mode & 0o111).toBe(0);
  });
});

describe("paths git resolves from its configuration are protected like .git/hooks", () => {
  beforeEach(() => {
    git("init", "-q");
    git("commit", "-q", "--allow-empty", "-m", "start");
  });

  it("no file tool writes a configured hooks path, in any spelling, and git commit runs nothing planted", async () => {
    git("config", "core.hooksPath", "tools/hooks");
    const marker = path.join(ws.base, "hook-ran");
    const hook = `#!/bin/sh\ntouch '${marker}'\n`;
    await ws.write("staged/pre-commit", hook);
    await chmod(ws.at("staged/pre-commit"), 0o755);
    const random = createRandom(24);
    for (let round = 0; round < 20; round++) {
      const hooks = `${spelling("tools", random)}/${spelling("hooks", random)}`;
      for (const [tool, input] of [
        ["write_file", { path: `${hooks}/pre-commit`, content: hook }],
        ["edit_file", { path: `${hooks}/pre-commit`, mode: "create", content: hook }],
        ["create_directory", { path: hooks }],
        ["copy_path", { source: "staged/pre-commit", destination: `${hooks}/pre-commit` }],
        ["move_path", { source: "staged", destination: hooks }],
      ] as const) {
        expect((await ws.assess(tool, input)).verdict, `${tool} ${hooks}`).toBe("block");
        expect((await ws.call(tool, input)).error, `${tool} ${hooks}`).toMatch(/^Refused: /);
      }
    }
    expect(existsSync(ws.at("tools/hooks/pre-commit"))).toBe(false);
    await writeFile(ws.at("file.txt"), "x");
    git("add", "file.txt");
    git("commit", "-q", "-m", "passive action");
    expect(existsSync(marker)).toBe(false);
    // The control: the same hook placed by a person does run on commit.
    await ws.write("tools/hooks/pre-commit", hook);
    await chmod(ws.at("tools/hooks/pre-commit"), 0o755);
    git("commit", "-q", "--allow-empty", "-m", "control");
    expect(existsSync(marker)).toBe(true);
  });

  it("an include target, existing or not, is protected, and so is what it configures", async () => {
    git("config", "include.path", "../team.gitconfig");
    const marker = path.join(ws.base, "include-hook-ran");
    const planted = await ws.call("write_file", {
      path: "team.gitconfig",
      content: "[core]\n\thooksPath = evil\n",
    });
    expect(planted.error).toMatch(/^Refused: .*git reads it as configuration/);
    // Placed by someone else: what it configures is protected too.
    await writeFile(ws.at("team.gitconfig"), "[core]\n\thooksPath = evil\n");
    const hook = await ws.call("write_file", {
      path: "evil/pre-commit",
      content: `#!/bin/sh\ntouch '${marker}'\n`,
    });
    expect(hook.error).toMatch(/^Refused: .*core.hooksPath in team.gitconfig/);
    await writeFile(ws.at("file.txt"), "x");
    git("add", "file.txt");
    git("commit", "-q", "-m", "passive action");
    expect(existsSync(marker)).toBe(false);
    await ws.write("evil/pre-commit", `#!/bin/sh\ntouch '${marker}'\n`);
    await chmod(ws.at("evil/pre-commit"), 0o755);
    git("commit", "-q", "--allow-empty", "-m", "control");
    expect(existsSync(marker)).toBe(true);
  });

  it("a configuration git cannot read makes every change need a person", async () => {
    await writeFile(ws.at(".git/config"), "[core\n");
    const assessment = await ws.assess("write_file", { path: "src/new.ts", content: "x" });
    expect(assessment).toMatchObject({ verdict: "confirm", requiresPerson: true });
    expect(assessment.reason).toContain("git's configuration for this workspace could not be read");
  });
});

describe("named entries hold in every spelling", () => {
  it.each(["AGENTS.md", "Jenkinsfile", ".gitlab-ci.yml", "bitbucket-pipelines.yml", "CLAUDE.md"])(
    "%s",
    async (name) => {
      const random = createRandom(name.length);
      for (let round = 0; round < 10; round++) {
        const spelled = spelling(name, random);
        const assessment = await ws.assess("write_file", { path: `pkg/${spelled}`, content: "x" });
        expect(needsPerson(assessment), spelled).toBe(true);
      }
    },
  );
});

describe("a workspace that is or holds the home directory", () => {
  it("is refused for a run without a person, and allowed with one", () => {
    expect(() =>
      createWorkspaceContext({ root: ws.root, unattended: true, home: ws.at("me") }),
    ).toThrow(HomeWorkspaceError);
    expect(() =>
      createWorkspaceContext({ root: ws.root, unattended: true, home: ws.root }),
    ).toThrow(/holds every startup file/);
    expect(() => createWorkspaceContext({ root: ws.root, home: ws.root })).not.toThrow();
    expect(() =>
      createWorkspaceContext({ root: ws.at("src"), unattended: true, home: ws.root }),
    ).not.toThrow();
  });
});
