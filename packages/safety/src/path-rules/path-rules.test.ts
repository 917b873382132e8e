import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { touchesGitDirectory } from "./git-directory-shape.js";
import { resolveLinkTarget } from "./link-target.js";
import { writeConcern } from "./path-rules.js";
import {
  isSecretPath,
  SECRET_DIRECTORIES,
  SECRET_FILE_NAMES,
  SECRET_FILE_PREFIXES,
  SECRET_FILE_SUFFIXES,
} from "./secret-paths.js";

describe("writeConcern", () => {
  it.each([
    ".git/config",
    ".git/commondir",
    ".git/hooks/pre-commit",
    ".git/modules/lib/config",
    ".git/worktrees/w/gitdir",
    ".git/config.worktree",
    ".git",
    "sub/.git/config",
    "sub/.git",
    ".Git/hooks/pre-commit",
    ".GIT/config",
    "vendor/lib/.git/info/attributes",
    ".hg/hgrc",
  ])("never lets a tool write version-control internals: %s", (relative) => {
    expect(writeConcern(relative)?.protection).toBe("never");
  });

  it.each([
    ".envrc",
    ".ENVRC",
    "sub/.envrc",
    ".vscode/tasks.json",
    ".vscode/settings.json",
    ".VSCode/launch.json",
    ".idea/workspace.xml",
    ".devcontainer/devcontainer.json",
    ".mcp.json",
    ".claude/settings.json",
    ".cursor/mcp.json",
    ".npmrc",
    ".yarnrc.yml",
    ".gitmodules",
    ".gitattributes",
    ".gitconfig",
    ".pre-commit-config.yaml",
    ".husky/pre-commit",
    "AGENTS.md",
    "agents.md",
    "packages/core/AGENTS.md",
    "CLAUDE.md",
    ".bashrc",
    "home/.zshrc",
    ".config/fish/config.fish",
    ".github/workflows/ci.yml",
    ".ssh/authorized_keys",
    ".aws/config",
    ".xzatoma/config.yaml",
    ".dir-locals.el",
  ])("needs a person for files that run code or steer agents: %s", (relative) => {
    expect(writeConcern(relative)?.protection).toBe("person");
  });

  it.each([
    "src/index.ts",
    "README.md",
    "docs/agents/guide.md",
    ".github/ISSUE_TEMPLATE.md",
    "gitconfig.ts",
    "build/cache/config",
  ])("leaves ordinary paths alone: %s", (relative) => {
    expect(writeConcern(relative)).toBeUndefined();
  });
});

describe("isSecretPath", () => {
  it.each([
    ".env",
    ".ENV",
    ".env.production",
    "config/prod.env",
    ".aws/credentials",
    "home/.aws/config",
    ".ssh/id_ed25519",
    "id_rsa",
    "certs/server.key",
    "tls.PEM",
    ".npmrc",
    ".netrc",
    ".git-credentials",
    "secrets.yaml",
    "gcp-credentials.json",
    ".docker/config.json",
    ".kube/config",
    "terraform.tfvars",
  ])("%s looks secret", (name) => {
    expect(isSecretPath(name)).toBe(true);
  });

  it.each([
    ".env.example",
    ".env.sample",
    "src/env.ts",
    "keyboard.ts",
    "README.md",
    "docs/secrets-management.md",
  ])("%s does not", (name) => {
    expect(isSecretPath(name)).toBe(false);
  });

  it.each([
    "deep/dir/.ENV",
    "a\\b\\server.KEY",
    "a/.env/",
    "a/.env/.",
    "a/.env//./",
    "x/.Config/GCloud/anything.txt",
    "x/.local/share/keyrings/login.keyring",
    "/abs/home/.ssh/known_hosts",
    "c:\\users\\me\\.aws\\config",
    ".ssh",
    ".aws/config.example",
  ])("%s looks secret by its components too", (name) => {
    expect(isSecretPath(name)).toBe(true);
  });

  it.each([
    "",
    ".",
    "/",
    "./",
    "a/.config/other/file",
    "a/.local/share/other",
    "my.ssh.notes/readme.md",
    "a/.sshx/config",
    "a/.env.template",
    "src/.environment.ts",
  ])("'%s' does not look secret", (name) => {
    expect(isSecretPath(name)).toBe(false);
  });

  it("gives the same answer as a plain component-by-component reading", () => {
    // The reference: the rules read literally over every component, no shortcuts.
    const reference = (filePath: string): boolean => {
      const components = filePath
        .split(/[\\/]+/)
        .filter((part) => part !== "" && part !== ".")
        .map((part) => part.toLowerCase());
      const name = components.at(-1);
      if (name === undefined) return false;
      const inDirectory = SECRET_DIRECTORIES.some((sequence) =>
        components.some((_, start) =>
          sequence.every((part, offset) => components[start + offset] === part),
        ),
      );
      if (inDirectory) return true;
      if ([".example", ".sample", ".template", ".dist", ".defaults"].some((s) => name.endsWith(s)))
        return false;
      return (
        SECRET_FILE_NAMES.includes(name) ||
        SECRET_FILE_SUFFIXES.some((suffix) => name.endsWith(suffix)) ||
        SECRET_FILE_PREFIXES.some((prefix) => name.startsWith(prefix))
      );
    };
    const parts = [
      ...SECRET_FILE_NAMES,
      ...SECRET_FILE_PREFIXES.map((prefix) => `${prefix}x`),
      ...SECRET_FILE_SUFFIXES.map((suffix) => `x${suffix}`),
      ...SECRET_DIRECTORIES.flat(),
      ".env.example",
      "x.pem.sample",
      "src",
      "index.ts",
      ".",
      "",
      "Σ.ENV",
      "İd_rsa",
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    for (let round = 0; round < 5000; round++) {
      const length = 1 + (next() % 4);
      const chosen = Array.from({ length }, () => parts[next() % parts.length] as string);
      const cased = chosen.map((part) => (next() % 2 === 0 ? part.toUpperCase() : part));
      const joined = cased.reduce(
        (text, part, index) =>
          index === 0 ? part : `${text}${next() % 3 === 0 ? "\\" : "/"}${part}`,
        "",
      );
      expect(isSecretPath(joined), joined).toBe(reference(joined));
    }
  });
});

describe("touchesGitDirectory", () => {
  let root: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(path.join(tmpdir(), "xz-git-shape-")));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("refuses the write that completes a bare-repository shape, in any order", async () => {
    await mkdir(path.join(root, "build/cache/objects"), { recursive: true });
    await mkdir(path.join(root, "build/cache/refs"));
    expect(touchesGitDirectory(root, path.join(root, "build/cache/config"))).toBe(false);
    expect(touchesGitDirectory(root, path.join(root, "build/cache/HEAD"))).toBe(true);
    await writeFile(path.join(root, "build/cache/HEAD"), "ref: refs/heads/main\n");
    // Once the shape exists, anything written inside it counts as git internals.
    expect(touchesGitDirectory(root, path.join(root, "build/cache/config"))).toBe(true);
    expect(touchesGitDirectory(root, path.join(root, "build/cache/objects/ab"))).toBe(true);
    expect(touchesGitDirectory(root, path.join(root, "build/other.txt"))).toBe(false);
  });

  it("counts the directories a write makes on the way", async () => {
    await mkdir(path.join(root, "stage/objects"), { recursive: true });
    await writeFile(path.join(root, "stage/HEAD"), "ref: refs/heads/main\n");
    // `mkdir -p stage/refs/heads` and a write to `stage/refs/heads/main` make `stage/refs`.
    expect(touchesGitDirectory(root, path.join(root, "stage/refs/heads"))).toBe(true);
    expect(touchesGitDirectory(root, path.join(root, "stage/refs/heads/main"))).toBe(true);
    expect(touchesGitDirectory(root, path.join(root, "stage/docs/refs/x"))).toBe(false);
  });

  it("sees a commondir as the shape too", async () => {
    await writeFile(path.join(root, "HEAD"), "x");
    expect(touchesGitDirectory(root, path.join(root, "sub", "x"))).toBe(false);
    await mkdir(path.join(root, "wt"));
    await writeFile(path.join(root, "wt/HEAD"), "x");
    expect(touchesGitDirectory(root, path.join(root, "wt/commondir"))).toBe(true);
  });
});

describe("resolveLinkTarget", () => {
  let root: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(path.join(tmpdir(), "xz-link-")));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("reads a link from where it lands, not where it is", async () => {
    const deep = path.join(root, "ws/a/b/c/d/e");
    await mkdir(deep, { recursive: true });
    expect(resolveLinkTarget(deep, "../../../../..")).toBe(path.join(root, "ws"));
    expect(resolveLinkTarget(path.join(root, "ws/sub"), "../../../../..")).toBe("/");
  });

  it("applies .. to the physical parent after a symlink, as the kernel does", async () => {
    await mkdir(path.join(root, "ws/sub"), { recursive: true });
    await mkdir(path.join(root, "outside/deep"), { recursive: true });
    await symlink(path.join(root, "outside/deep"), path.join(root, "ws/sub/link"));
    // Lexically "ws/sub/link/.." is ws/sub; really it is outside/.
    expect(resolveLinkTarget(path.join(root, "ws/sub"), "link/..")).toBe(
      path.join(root, "outside"),
    );
  });

  it("gives up on link loops", async () => {
    await symlink("loop-b", path.join(root, "loop-a"));
    await symlink("loop-a", path.join(root, "loop-b"));
    expect(resolveLinkTarget(root, "loop-a/x")).toBeUndefined();
  });
});
