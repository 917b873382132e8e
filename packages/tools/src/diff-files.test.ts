import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createTestWorkspace,
  escapingPaths,
  type TestWorkspace,
} from "./file-tools.test-support.js";

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await createTestWorkspace({ maxFileBytes: 4096 });
  await ws.write("a.txt", "one\ntwo\nthree\n");
  await ws.write("b.txt", "one\n2\nthree\nfour\n");
});

afterEach(async () => {
  await ws.cleanup();
});

describe("diff_files", () => {
  it("shows a unified diff of two files", async () => {
    const result = await ws.call("diff_files", { path_a: "a.txt", path_b: "b.txt" });
    expect(result.output).toBe(
      "--- a/a.txt\n+++ b/b.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n",
    );
    expect(result.metadata).toMatchObject({ identical: false });
    expect(ws.approvals).toEqual([]);
  });

  it("says when files are identical and explains missing, binary and large files", async () => {
    expect((await ws.call("diff_files", { path_a: "a.txt", path_b: "a.txt" })).output).toBe(
      "a.txt and a.txt are identical.",
    );
    expect((await ws.call("diff_files", { path_a: "a.txt", path_b: "nope.txt" })).error).toBe(
      "'nope.txt' does not exist. Use list_directory to see what is there.",
    );
    await ws.write("bin.dat", Buffer.from([0, 1]));
    expect((await ws.call("diff_files", { path_a: "bin.dat", path_b: "a.txt" })).error).toBe(
      "'bin.dat' is a binary file; only text files can be used here.",
    );
    await ws.write("big.txt", "x".repeat(5000));
    expect((await ws.call("diff_files", { path_a: "a.txt", path_b: "big.txt" })).error).toBe(
      "'big.txt' has 5000 bytes, more than the limit of 4096.",
    );
    expect((await ws.call("diff_files", { path_a: "src", path_b: "a.txt" })).error).toBe(
      "'src' is a directory, not a file.",
    );
  });

  it("cuts very long diffs", async () => {
    await ws.write("many-a.txt", Array.from({ length: 300 }, (_, index) => `a${index}`).join("\n"));
    await ws.write("many-b.txt", Array.from({ length: 300 }, (_, index) => `b${index}`).join("\n"));
    const output = (await ws.call("diff_files", { path_a: "many-a.txt", path_b: "many-b.txt" }))
      .output;
    expect(output).toMatch(/\n\.\.\. \(diff cut after 400 of \d+ lines\)\n$/);
  });

  it("refuses escapes on either side", async () => {
    for (const [label, escape] of Object.entries(escapingPaths(ws))) {
      expect(
        (await ws.call("diff_files", { path_a: "a.txt", path_b: escape })).error,
        label,
      ).not.toContain("top secret");
      expect(
        (await ws.call("diff_files", { path_a: escape, path_b: "a.txt" })).metadata,
        label,
      ).toMatchObject({
        refused: true,
      });
    }
  });
});
