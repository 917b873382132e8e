import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createTestWorkspace,
  escapingPaths,
  type TestWorkspace,
} from "./file-tools.test-support.js";

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await createTestWorkspace();
  await ws.write(".gitignore", "dist/\n*.log\n");
  await ws.write("src/a.ts", "");
  await ws.write("src/deep/c.ts", "");
  await ws.write("dist/x.ts", "");
  await ws.write("debug.log", "");
  await ws.write(".github/ci.yml", "");
  for (let index = 0; index < 60; index++) {
    await ws.write(`many/f${String(index).padStart(2, "0")}.txt`, "");
  }
});

afterEach(async () => {
  await ws.cleanup();
});

describe("find_path", () => {
  it("finds sorted matches at any depth and skips what .gitignore ignores", async () => {
    const result = await ws.call("find_path", { glob: "**/*.ts" });
    expect(result.output).toBe(
      "Found 3 matches for '**/*.ts' (showing 1-3 of 3):\nsrc/a.ts\nsrc/deep/c.ts\nsrc/index.ts",
    );
    expect(result.metadata).toMatchObject({ total: 3, shown: 3, offset: 0, limit: 50 });
    expect((await ws.call("find_path", { glob: "dist/**" })).output).toBe(
      "No matches for 'dist/**'. Paths ignored by .gitignore are skipped, and names starting with '.' match only when the glob spells the dot.",
    );
    expect((await ws.call("find_path", { glob: "*.log" })).metadata).toMatchObject({ total: 0 });
  });

  it("lists directories with a trailing slash and dot entries only when named", async () => {
    expect((await ws.call("find_path", { glob: "src/*" })).output).toBe(
      "Found 3 matches for 'src/*' (showing 1-3 of 3):\nsrc/a.ts\nsrc/deep/\nsrc/index.ts",
    );
    expect((await ws.call("find_path", { glob: "**/*.yml" })).metadata).toMatchObject({ total: 0 });
    expect((await ws.call("find_path", { glob: ".github/*.yml" })).output).toContain(
      "\n.github/ci.yml",
    );
    expect((await ws.call("find_path", { glob: "src/{a,deep/c}.ts" })).metadata).toMatchObject({
      total: 2,
    });
  });

  it("pages through results with offset and limit", async () => {
    const first = await ws.call("find_path", { glob: "many/*.txt", limit: 25 });
    expect(first.output.split("\n")[0]).toBe(
      "Found 60 matches for 'many/*.txt' (showing 1-25 of 60):",
    );
    expect(first.output.split("\n")[1]).toBe("many/f00.txt");
    expect(first.output.endsWith("many/f24.txt\nMore: call find_path again with offset=25.")).toBe(
      true,
    );
    const last = await ws.call("find_path", { glob: "many/*.txt", offset: 50, limit: 25 });
    expect(last.output.split("\n")[0]).toBe(
      "Found 60 matches for 'many/*.txt' (showing 51-60 of 60):",
    );
    expect(last.output.endsWith("many/f59.txt")).toBe(true);
    expect((await ws.call("find_path", { glob: "many/*.txt", offset: 60 })).error).toBe(
      "offset 60 is past the last match: 'many/*.txt' has 60 matches.",
    );
    expect((await ws.call("find_path", { glob: "many/*", limit: 5000 })).metadata).toMatchObject({
      limit: 1000,
    });
  });

  it("refuses absolute globs, '..' and broken globs", async () => {
    expect((await ws.call("find_path", { glob: "/etc/*" })).error).toBe(
      "The glob '/etc/*' is absolute. Give it relative to the workspace root, e.g. 'src/**/*.ts'.",
    );
    for (const glob of ["../*", "src/../../**", "{..,src}/*", "../ws-sibling/*"]) {
      expect((await ws.call("find_path", { glob })).error, glob).toBe(
        `The glob '${glob}' contains '..'; globs cannot leave the workspace root.`,
      );
    }
    expect((await ws.call("find_path", { glob: `${ws.root}/**` })).error).toContain("is absolute");
    expect((await ws.call("find_path", { glob: "  " })).error).toBe(
      "The glob is empty. Give a pattern such as '**/*.ts'.",
    );
    expect((await ws.call("find_path", { glob: "" })).error).toContain(
      "Invalid input for 'find_path'",
    );
  });

  it("answers at once for globs that a backtracking matcher takes seconds on", async () => {
    // picomatch's regular expression for the first glob took 16 s on this one name.
    const name = `${"a".repeat(200)}`;
    await ws.write(`long/${name}`, "");
    for (const glob of [
      "**/*a*a*a*a*b",
      `long/${"*a".repeat(40)}*b`,
      `**/${"+(a|aa)".repeat(6)}b`,
    ]) {
      expect((await ws.call("find_path", { glob })).metadata, glob).toMatchObject({ total: 0 });
    }
    expect((await ws.call("find_path", { glob: "long/*a*a*a*a" })).output).toContain(
      `long/${name}`,
    );
    expect(
      (await ws.call("grep", { pattern: "x", include: "*a*a*a*a*a*b" })).metadata,
    ).toMatchObject({ files: 0 });
  });

  it("never walks through symlinks out of the workspace", async () => {
    expect((await ws.call("find_path", { glob: "**/secret.txt" })).metadata).toMatchObject({
      total: 0,
    });
    expect((await ws.call("find_path", { glob: "link-out/**" })).metadata).toMatchObject({
      total: 0,
    });
    expect((await ws.call("find_path", { glob: "*link-out" })).output).toContain(
      "\nfile-link-out\nlink-out",
    );
    for (const escape of Object.values(escapingPaths(ws))) {
      expect((await ws.call("find_path", { glob: escape })).output).not.toContain("secret.txt\n");
    }
  });
});
