import { link, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createTestWorkspace,
  escapingPaths,
  type TestWorkspace,
} from "./file-tools.test-support.js";

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await createTestWorkspace({ maxFileBytes: 64 });
});

afterEach(async () => {
  await ws.cleanup();
});

describe("write_file", () => {
  it("creates a new file and its parent directories without asking", async () => {
    const result = await ws.call("write_file", { path: "a/b/new.txt", content: "hello\n" });
    expect(result.output).toBe("Created a/b/new.txt (6 bytes).");
    expect(result.metadata).toMatchObject({ path: "a/b/new.txt", bytes: 6, created: true });
    expect(await readFile(ws.at("a/b/new.txt"), "utf8")).toBe("hello\n");
    expect(ws.approvals.map((request) => request.verdict)).toEqual(["allow"]);
    expect(await ws.assess("write_file", { path: "other.txt", content: "x" })).toEqual({
      verdict: "allow",
      reason: "creates other.txt",
      summary: "create other.txt (1 byte)",
      // Handed to the execution: a file that appears meanwhile is not overwritten.
      facts: { creates: true },
    });
  });

  it("overwrites an ordinary file unasked, as edit_file and a sandboxed command do, and reports the sizes", async () => {
    expect(await ws.assess("write_file", { path: "README.md", content: "new" })).toEqual({
      verdict: "allow",
      reason: "overwrites the existing file README.md",
      summary: "overwrite README.md (9 bytes -> 3 bytes)",
    });
    const result = await ws.call("write_file", { path: "README.md", content: "new" });
    expect(result.output).toBe("Overwrote README.md (9 -> 3 bytes).");
    expect(ws.approvals.map((request) => request.verdict)).toEqual(["allow"]);
    expect(await readFile(ws.at("README.md"), "utf8")).toBe("new");
  });

  it("refuses content over the limit, directories and files with several hard links", async () => {
    const big = "x".repeat(65);
    expect((await ws.assess("write_file", { path: "big.txt", content: big })).verdict).toBe(
      "block",
    );
    expect((await ws.call("write_file", { path: "big.txt", content: big })).error).toBe(
      "Refused: The content has 65 bytes, more than the limit of 64. Write a smaller file. This call will not run in any mode; do not retry it.",
    );
    await mkdir(ws.at("dir"));
    expect((await ws.call("write_file", { path: "dir", content: "x" })).error).toContain(
      "'dir' is a directory; write_file writes files.",
    );
    await link(ws.at("README.md"), ws.at("hard-link.md"));
    const linked = await ws.call("write_file", { path: "hard-link.md", content: "changed" });
    expect(linked.error).toContain("'hard-link.md' has 2 hard links");
    expect(await readFile(ws.at("README.md"), "utf8")).toBe("# Readme\n");
  });

  it("does not overwrite a file that appeared after the call was judged new", async () => {
    const result = await ws.call("write_file", { path: "race.txt", content: "mine" }, () =>
      writeFile(ws.at("race.txt"), "theirs"),
    );
    expect(ws.approvals.map((request) => request.verdict)).toEqual(["allow"]);
    expect(result.error).toBe(
      "'race.txt' appeared after this call was checked, so it was not overwritten. Call write_file again if you mean to replace it.",
    );
    expect(await readFile(ws.at("race.txt"), "utf8")).toBe("theirs");
  });

  it("refuses every escape and leaves the outside untouched", async () => {
    for (const [label, escape] of Object.entries(escapingPaths(ws))) {
      const result = await ws.call("write_file", { path: escape, content: "pwned" });
      expect(result.success, label).toBe(false);
      expect(result.error, label).toMatch(/^Refused: /);
      expect((await ws.assess("write_file", { path: escape, content: "x" })).verdict, label).toBe(
        "block",
      );
    }
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("top secret\n");
    expect(await readFile(path.join(ws.sibling, "x.txt"), "utf8")).toBe("sibling\n");
  });

  it("refuses protected paths and leaves them unchanged", async () => {
    await ws.write(".git/hooks/pre-commit", "#!/bin/sh\n");
    await ws.write(".git/config", "[core]\n");
    await ws.write(".bashrc", "# rc\n");
    for (const file of [".git/hooks/pre-commit", ".git/config", ".bashrc", "sub/.bashrc"]) {
      const before = await stat(ws.at(file)).then(
        () => readFile(ws.at(file), "utf8"),
        () => undefined,
      );
      const result = await ws.call("write_file", { path: file, content: "evil" });
      expect(result.error, file).toContain("is protected");
      // git internals: never; startup files: only a person's yes (this handler is no person).
      expect(await ws.assess("write_file", { path: file, content: "x" }), file).toMatchObject(
        file.startsWith(".git")
          ? { verdict: "block" }
          : { verdict: "confirm", requiresPerson: true },
      );
      const after = await readFile(ws.at(file), "utf8").catch(() => undefined);
      expect(after, file).toBe(before);
    }
  });
});
