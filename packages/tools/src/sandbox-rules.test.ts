// The judge of the sandbox's apply: commands may write the workspace as builds need (hidden
// paths and executables included, named in the report), never the protected list or the
// paths git resolves from its configuration. A real bubblewrap run where the machine has one.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createSandbox, judgeFileChange } from "@xzatoma/safety";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeSandboxReport, judgeSandboxChange, sandboxReport } from "./sandbox-rules.js";
import { createWorkspaceContext, type WorkspaceContext } from "./workspace-context.js";

let base: string;
let workspace: WorkspaceContext;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-sandbox-rules-")));
  await mkdir(path.join(base, "ws"));
  execFileSync("git", ["init", "-q"], { cwd: path.join(base, "ws") });
  execFileSync("git", ["config", "core.hooksPath", "ci/hooks"], { cwd: path.join(base, "ws") });
  workspace = createWorkspaceContext({ root: path.join(base, "ws") });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Case variants of ASCII letters, and the Kelvin sign for k. */
function variants(relative: string): string[] {
  return [
    relative,
    relative.toUpperCase(),
    relative.replace(/[a-z]/g, (letter, index: number) =>
      index % 2 ? letter.toUpperCase() : letter,
    ),
    relative.replace(/k/g, "\u212a"),
    relative.replace(/\//g, "\u200c/"),
  ];
}

describe("judgeSandboxChange", () => {
  it("discards the protected list and configured paths in every spelling, even for an approved git command", () => {
    for (const relative of [
      "ci/hooks/pre-commit",
      ".git/hooks/post-checkout",
      ".vscode/tasks.json",
      "AGENTS.md",
      "pkg/Jenkinsfile",
      ".gitlab-ci.yml",
      ".envrc",
      "sub/.git/config",
    ]) {
      for (const spelled of variants(relative)) {
        for (const writableGit of [false, true]) {
          if (writableGit && spelled.toLowerCase().startsWith(".git/") && !/hooks/i.test(spelled))
            continue;
          expect(judgeSandboxChange(workspace, spelled, writableGit), spelled).toMatch(
            /is protected/,
          );
        }
      }
    }
  });

  it("discards a link above a configured path, when told the change is a link", () => {
    expect(judgeSandboxChange(workspace, "ci", false, "symlink")).toMatch(/core.hooksPath/);
    expect(judgeSandboxChange(workspace, "ci", false, "mkdir")).toBeUndefined();
  });

  it("applies what builds write: caches, environments, node_modules/.bin, target/", () => {
    for (const relative of [
      ".venv/lib/python3.12/site-packages/pkg/__init__.py",
      "node_modules/.bin/tsc",
      ".cache/pip/x",
      "target/debug/app",
      "dist/index.js",
    ])
      expect(judgeSandboxChange(workspace, relative, false), relative).toBeUndefined();
  });
});

describe("sandboxReport", () => {
  it("names every hidden path and executable that reached the workspace, and nothing else", async () => {
    const at = (relative: string) => path.join(workspace.root, relative);
    await mkdir(at(".venv/bin"), { recursive: true });
    await mkdir(at("target/debug"), { recursive: true });
    await writeFile(at(".venv/bin/activate"), "# activate\n");
    await writeFile(at("target/debug/app"), "\x7fELF");
    await chmod(at("target/debug/app"), 0o755);
    await writeFile(at("src.txt"), "plain");
    const outcome = {
      applied: [
        ".venv",
        ".venv/bin",
        ".venv/bin/activate",
        "target/debug/app",
        "src.txt",
        "gone.txt",
      ],
      discarded: [],
    };
    const reported = sandboxReport(workspace, outcome).map((change) => change.path);
    expect(reported).toEqual([".venv", ".venv/bin", ".venv/bin/activate", "target/debug/app"]);
    const note = describeSandboxReport(workspace, outcome);
    expect(note).toContain("target/debug/app: it is an executable file");
    expect(note).toContain(".venv/bin/activate: .venv is hidden");
    expect(describeSandboxReport(workspace, { applied: ["src.txt"], discarded: [] })).toBe("");
  });
});

const sandbox = createSandbox();

describe("a real sandboxed command", () => {
  it("writes builds' hidden paths and executables, which the report names, and never the configured hooks path", async () => {
    await sandbox.probe();
    if (sandbox.kind === "none") {
      // Without bubblewrap only `direct` commands run unattended; nothing to apply here.
      expect(sandbox.warning).toBeDefined();
      return;
    }
    const command = [
      "mkdir -p ci/hooks .venv/bin node_modules/.bin",
      "printf '#!/bin/sh\\ntouch hook-ran\\n' > ci/hooks/pre-commit && chmod +x ci/hooks/pre-commit",
      "echo x > .venv/bin/activate",
      "printf '#!/bin/sh\\n' > node_modules/.bin/tool && chmod +x node_modules/.bin/tool",
      "echo agents > AGENTS.md",
    ].join(" && ");
    const prepared = await sandbox.prepare(["/bin/bash", "--noprofile", "--norc", "-c", command], {
      workspace: workspace.root,
      cwd: workspace.root,
      readOnlyPaths: [],
      network: false,
      writableGit: false,
      judge: (relative, change, context) =>
        judgeSandboxChange(workspace, relative, context.writableGit, change),
    });
    const child = spawn(prepared.file, prepared.args, {
      cwd: workspace.root,
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...prepared.env },
      stdio: prepared.stdio,
      detached: true,
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const outcome = await prepared.finish();
    expect(code).toBe(0);
    const at = (relative: string) => path.join(workspace.root, relative);
    expect(existsSync(at("ci/hooks/pre-commit"))).toBe(false);
    expect(existsSync(at("AGENTS.md"))).toBe(false);
    expect(await readFile(at(".venv/bin/activate"), "utf8")).toBe("x\n");
    expect(outcome.discarded.map((change) => change.path)).toEqual(
      expect.arrayContaining(["ci/hooks/pre-commit", "AGENTS.md"]),
    );
    const reported = sandboxReport(workspace, outcome).map((change) => change.path);
    expect(reported).toEqual(
      expect.arrayContaining([".venv/bin/activate", "node_modules/.bin/tool"]),
    );
    expect(judgeFileChange(workspace.root, "node_modules/.bin/tool", "write")).toBeDefined();
  }, 120_000);
});
