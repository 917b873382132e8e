import { chmod, symlink, utimes } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatMode } from "./file-metadata.js";
import {
  createTestWorkspace,
  escapingPaths,
  type TestWorkspace,
} from "./file-tools.test-support.js";

let ws: TestWorkspace;
const when = new Date("2024-05-01T12:30:00.000Z");

beforeEach(async () => {
  ws = await createTestWorkspace({ maxFileBytes: 1024 });
  await ws.write("notes.txt", "one\ntwo\nthree");
  await chmod(ws.at("notes.txt"), 0o640);
  await utimes(ws.at("notes.txt"), when, when);
});

afterEach(async () => {
  await ws.cleanup();
});

describe("file_metadata", () => {
  it("reports type, size, mode, mtime, links and lines of a text file", async () => {
    const result = await ws.call("file_metadata", { path: "notes.txt" });
    expect(result.output).toBe(
      [
        "path: notes.txt",
        "type: file",
        "size: 13 bytes",
        "mode: 0640 (rw-r-----)",
        "modified: 2024-05-01T12:30:00.000Z",
        "links: 1",
        "lines: 3",
      ].join("\n"),
    );
    expect(result.metadata).toMatchObject({
      type: "file",
      size: 13,
      lines: 3,
      links: 1,
      mode: 0o640,
    });
    expect(ws.approvals).toEqual([]);
  });

  it("counts directory entries, follows inner symlinks and skips counting binary or big files", async () => {
    expect((await ws.call("file_metadata", { path: "src" })).output).toContain("type: directory\n");
    expect((await ws.call("file_metadata", { path: "src" })).output).toContain("entries: 1");
    await symlink("notes.txt", ws.at("alias"));
    const link = await ws.call("file_metadata", { path: "alias" });
    expect(link.output).toContain(
      "path: alias\nsymlink: notes.txt (resolves to notes.txt)\ntype: file\n",
    );
    await ws.write("bin.dat", Buffer.from([0, 1, 2]));
    expect((await ws.call("file_metadata", { path: "bin.dat" })).output).toContain(
      "lines: not counted (binary file)",
    );
    await ws.write("big.txt", "x\n".repeat(600));
    expect((await ws.call("file_metadata", { path: "big.txt" })).output).toContain(
      "lines: not counted (more than 1024 bytes)",
    );
    expect((await ws.call("file_metadata", { path: "nope" })).error).toBe(
      "'nope' does not exist. Use list_directory to see what is there.",
    );
  });

  it("refuses escapes", async () => {
    for (const [label, escape] of Object.entries(escapingPaths(ws))) {
      const result = await ws.call("file_metadata", { path: escape });
      expect(result.success, label).toBe(false);
      expect(result.error, label).not.toContain("size:");
      expect(result.metadata, label).toMatchObject({ refused: true });
    }
  });

  it("formats permission bits", () => {
    expect(formatMode(0o100755)).toBe("0755 (rwxr-xr-x)");
    expect(formatMode(0o4750)).toBe("4750 (rwxr-x---)");
  });
});
