import { constants } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPathGuard, type PathGuard } from "./path-guard.js";
import { PathOutsideWorkspaceError, PathProtectedError } from "./path-guard-error.js";

let base: string;
let root: string;
let guard: PathGuard;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-guard-")));
  root = path.join(base, "workspace");
  await mkdir(path.join(root, "src"), { recursive: true });
  await writeFile(path.join(root, "src", "a.txt"), "a");
  await writeFile(path.join(base, "secret.txt"), "secret");
  guard = createPathGuard({ root });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refusal(input: string): Promise<string> {
  const error = await guard.resolve(input).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PathOutsideWorkspaceError);
  return (error as PathOutsideWorkspaceError).refusal;
}

describe("path guard", () => {
  it("resolves relative, absolute-inside and not-yet-existing paths", async () => {
    await expect(guard.resolve("src/a.txt")).resolves.toBe(path.join(root, "src", "a.txt"));
    await expect(guard.resolve(path.join(root, "src"))).resolves.toBe(path.join(root, "src"));
    await expect(guard.resolve("new/dir/file.txt")).resolves.toBe(
      path.join(root, "new/dir/file.txt"),
    );
    await expect(guard.resolve(".")).resolves.toBe(root);
    expect(guard.relative(path.join(root, "src", "a.txt"))).toBe("src/a.txt");
  });

  it("refuses escapes by .., absolute paths and a sibling sharing the root's prefix", async () => {
    await mkdir(`${root}-evil`);
    expect(await refusal("../secret.txt")).toBe("outside-workspace");
    expect(await refusal("src/../../secret.txt")).toBe("outside-workspace");
    expect(await refusal(path.join(base, "secret.txt"))).toBe("outside-workspace");
    expect(await refusal(`${root}-evil/x`)).toBe("outside-workspace");
    expect(await refusal("/etc/passwd")).toBe("outside-workspace");
  });

  it("refuses symlinks whose target leaves the root, also below a new path", async () => {
    await symlink(path.join(base, "secret.txt"), path.join(root, "link.txt"));
    await symlink(base, path.join(root, "outdir"));
    expect(await refusal("link.txt")).toBe("symlink-escape");
    expect(await refusal("outdir/secret.txt")).toBe("symlink-escape");
    expect(await refusal("outdir/not-yet/new.txt")).toBe("symlink-escape");
  });

  it("allows symlinks that stay inside the root", async () => {
    await symlink(path.join(root, "src"), path.join(root, "alias"));
    await expect(guard.resolve("alias/a.txt")).resolves.toBe(path.join(root, "src", "a.txt"));
  });

  it("refuses NUL bytes, empty paths and system pseudo-filesystems", async () => {
    expect(await refusal("src/a.txt\0.png")).toBe("invalid-path");
    expect(await refusal("  ")).toBe("invalid-path");
    await symlink("/proc/self", path.join(root, "proc-link"));
    expect(await refusal("proc-link/environ")).toBe("system-path");
  });
});

describe("path guard for writes", () => {
  it("refuses version-control internals and configured paths, and names what needs a person", async () => {
    await mkdir(path.join(root, ".git", "hooks"), { recursive: true });
    const config = path.join(root, "xz-config.yaml");
    const guarded = createPathGuard({ root, protectedPaths: [config] });
    for (const target of [
      ".git/hooks/pre-commit",
      ".git/config",
      ".git/objects/ab",
      ".GIT/config",
      "sub/.git/config",
      "xz-config.yaml",
      ".git",
    ]) {
      const error = await guarded.resolveForWrite(target).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error, target).toBeInstanceOf(PathProtectedError);
    }
    // Files that run code resolve for writing; their writes need a person's yes.
    for (const target of [".bashrc", "sub/.zshrc", ".vscode/tasks.json", "AGENTS.md"]) {
      const real = await guarded.resolveForWrite(target);
      expect(await guarded.writeConcern(real), target).toMatchObject({ protection: "person" });
      expect(guarded.isProtected(real), target).toBe(true);
    }
    expect(await guarded.writeConcern(path.join(root, "src/a.txt"))).toBeUndefined();
    await expect(guarded.resolve(".git/config")).resolves.toBe(path.join(root, ".git/config"));
  });

  it("opens files without following a final symlink and reports what was opened", async () => {
    const opened = await guard.open("src/a.txt", constants.O_RDONLY);
    expect(opened.path).toBe(path.join(root, "src", "a.txt"));
    await opened.handle.close();
    await symlink(path.join(root, "src", "a.txt"), path.join(root, "alias.txt"));
    // The guard resolves the alias to its real target, which is inside: opening it is fine.
    const viaAlias = await guard.open("alias.txt", constants.O_RDONLY);
    expect(viaAlias.path).toBe(path.join(root, "src", "a.txt"));
    await viaAlias.handle.close();
    await expect(
      guard.open(".git/config", constants.O_WRONLY | constants.O_CREAT),
    ).rejects.toBeInstanceOf(PathProtectedError);
  });
});
