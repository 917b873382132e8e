import { describe, expect, it } from "vitest";
import { isSecretPath } from "./secret-paths.js";

describe("isSecretPath: git's configuration", () => {
  it.each([
    ".git/config",
    ".GIT/Config",
    "vendor/lib/.git/config",
    ".git/config.worktree",
    ".git/worktrees/feature/config.worktree",
    ".git/worktrees/feature/config",
    ".git/modules/sub/config",
    ".git/modules/a/modules/b/config",
    "mirror.git/config",
    "/srv/repos/app.git/config",
    "C:\\work\\app\\.git\\config",
    ".gitconfig",
    "home/.gitconfig",
    "home/.config/git/config",
  ])("%s holds clone and CI credentials", (name) => {
    expect(isSecretPath(name)).toBe(true);
  });

  it.each([
    "config",
    "src/config",
    "config/app.yaml",
    ".git/HEAD",
    ".git/hooks/pre-commit",
    ".git",
    ".gitignore",
    ".gitattributes",
    ".github/config",
    "digit/config",
    "home/.config/git/ignore",
    "home/.config/other/config",
  ])("%s does not", (name) => {
    expect(isSecretPath(name)).toBe(false);
  });
});
