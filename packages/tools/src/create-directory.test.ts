import { lstat, readFile, stat } from "node:fs/promises";
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
});

afterEach(async () => {
  await ws.cleanup();
});

describe("create_directory", () => {
  it("creates nested directories and accepts existing ones", async () => {
    expect(await ws.assess("create_directory", { path: "a/b/c" })).toEqual({
      verdict: "allow",
      reason: "creates the directory a/b/c",
    });
    expect((await ws.call("create_directory", { path: "a/b/c" })).output).toBe(
      "Created directory a/b/c.",
    );
    expect((await stat(ws.at("a/b/c"))).isDirectory()).toBe(true);
    expect((await ws.call("create_directory", { path: "a/b" })).output).toBe(
      "Directory a/b already exists.",
    );
  });

  it("explains a file in the way", async () => {
    expect((await ws.call("create_directory", { path: "README.md" })).error).toBe(
      "'README.md' exists and is a file, not a directory.",
    );
    expect((await ws.call("create_directory", { path: "README.md/sub" })).error).toBe(
      "A part of 'README.md/sub' is a file, not a directory; choose another path.",
    );
  });

  it("refuses escapes and protected paths", async () => {
    for (const [label, escape] of Object.entries(escapingPaths(ws))) {
      expect(
        (await ws.call("create_directory", { path: `${escape}/new-dir` })).error,
        label,
      ).toMatch(/^Refused: /);
      expect((await ws.assess("create_directory", { path: escape })).verdict, label).toBe("block");
    }
    await expect(lstat(path.join(ws.outside, "new-dir"))).rejects.toThrow("ENOENT");
    await ws.write(".git/config", "[core]\n");
    for (const protectedPath of [".git/hooks", ".git/hooks/new", ".git/config", ".bashrc"]) {
      expect(
        (await ws.call("create_directory", { path: protectedPath })).error,
        protectedPath,
      ).toContain("is protected");
    }
    expect(await readFile(ws.at(".git/config"), "utf8")).toBe("[core]\n");
    await expect(lstat(ws.at(".git/hooks"))).rejects.toThrow("ENOENT");
  });
});
