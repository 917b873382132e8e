import { lstat, readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createTestWorkspace,
  escapingPaths,
  type TestWorkspace,
} from "./file-tools.test-support.js";

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await createTestWorkspace();
  await ws.write("old/a.txt", "a");
  await ws.write("old/sub/b.txt", "b");
  await ws.write("old/sub/c.txt", "c");
});

afterEach(async () => {
  await ws.cleanup();
});

describe("delete_path", () => {
  it("deletes ordinary paths unasked, as a sandboxed rm does, naming the number of items", async () => {
    expect(await ws.assess("delete_path", { path: "old", recursive: true })).toEqual({
      verdict: "allow",
      reason: "deletes 5 items under old",
      summary: "delete 5 items under old",
    });
    expect((await ws.assess("delete_path", { path: "README.md" })).summary).toBe(
      "delete 1 item under README.md",
    );
  });

  it("deletes a file, and a directory only when recursive, reporting the count", async () => {
    expect((await ws.call("delete_path", { path: "README.md" })).output).toBe(
      "Deleted README.md (1 item).",
    );
    const refused = await ws.call("delete_path", { path: "old" });
    expect(refused.error).toBe(
      "'old' is a directory with 4 items in it. Set recursive to true to delete it and everything in it.",
    );
    const deleted = await ws.call("delete_path", { path: "old", recursive: true });
    expect(deleted.output).toBe("Deleted old (5 items).");
    expect(deleted.metadata).toMatchObject({ items: 5, directory: true });
    await expect(lstat(ws.at("old"))).rejects.toThrow("ENOENT");
    expect(ws.approvals.map((request) => request.summary)).toEqual([
      "delete 1 item under README.md",
      "delete 5 items under old",
      "delete 5 items under old",
    ]);
    expect((await ws.call("delete_path", { path: "gone.txt" })).error).toBe(
      "'gone.txt' does not exist; nothing was deleted.",
    );
  });

  it("deletes a symlink, never its target", async () => {
    await symlink("old", ws.at("alias"));
    expect((await ws.call("delete_path", { path: "alias", recursive: true })).output).toBe(
      "Deleted alias (1 item).",
    );
    expect(await readFile(ws.at("old/a.txt"), "utf8")).toBe("a");
  });

  it("refuses the workspace root", async () => {
    for (const root of [".", "./", "src/..", ws.root]) {
      expect((await ws.assess("delete_path", { path: root, recursive: true })).verdict, root).toBe(
        "block",
      );
      expect((await ws.call("delete_path", { path: root, recursive: true })).error, root).toContain(
        "is the workspace root; delete_path never deletes it",
      );
    }
    expect(await readFile(ws.at("README.md"), "utf8")).toBe("# Readme\n");
  });

  it("refuses escapes and leaves the outside in place", async () => {
    for (const [label, escape] of Object.entries(escapingPaths(ws))) {
      expect(
        (await ws.call("delete_path", { path: escape, recursive: true })).error,
        label,
      ).toMatch(/^Refused: /);
    }
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("top secret\n");
    expect(await readFile(path.join(ws.sibling, "x.txt"), "utf8")).toBe("sibling\n");
  });

  it("refuses protected paths and trees that hold one", async () => {
    await ws.write(".git/hooks/pre-commit", "#!/bin/sh\n");
    await ws.write(".git/config", "[core]\n");
    await ws.write(".bashrc", "# rc\n");
    await ws.write("home/.bashrc", "# rc\n");
    for (const file of [".git/hooks/pre-commit", ".git/config", ".bashrc", ".git", ".git/hooks"]) {
      expect(await ws.assess("delete_path", { path: file, recursive: true }), file).toMatchObject(
        file.startsWith(".git")
          ? { verdict: "block" }
          : { verdict: "confirm", requiresPerson: true },
      );
      expect((await ws.call("delete_path", { path: file, recursive: true })).error, file).toContain(
        "protected",
      );
    }
    expect((await ws.call("delete_path", { path: "home", recursive: true })).error).toContain(
      "home/.bashrc is protected: it is .bashrc, and a shell runs it",
    );
    await ws.write("repo/.git/config", "[core]\n");
    expect((await ws.call("delete_path", { path: "repo", recursive: true })).error).toBe(
      "Refused: 'repo' contains the protected path 'repo/.git': it is under .git/, and version-control internals make git or another tool run code on the next ordinary command. No tool may change it. This call will not run in any mode; do not retry it.",
    );
    expect(await readFile(ws.at("home/.bashrc"), "utf8")).toBe("# rc\n");
    expect(await readFile(ws.at(".git/hooks/pre-commit"), "utf8")).toBe("#!/bin/sh\n");
    expect(await readFile(ws.at(".git/config"), "utf8")).toBe("[core]\n");
    expect(await readFile(ws.at(".bashrc"), "utf8")).toBe("# rc\n");
  });
});
