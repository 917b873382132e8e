import { mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ApprovalRequest } from "@xzatoma/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proposedChange, type ChangeReader } from "./proposed-change.js";

let root: string;
let reader: ChangeReader;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "xz-proposed-change-")));
  await writeFile(path.join(root, "notes.txt"), "one\ntwo\nthree\n");
  await writeFile(path.join(root, "blob.bin"), Buffer.from([0, 1, 2]));
  await symlink("/etc/hostname", path.join(root, "outside"));
  // As the workspace's path guard does: real paths inside the root, anything else refused.
  reader = {
    root,
    async resolve(input) {
      const real = await realpath(path.resolve(root, input)).catch(() => path.resolve(root, input));
      if (path.relative(root, real).startsWith("..")) throw new Error("outside the workspace");
      return real;
    },
  };
});

afterAll(() => rm(root, { recursive: true, force: true }));

const call = (toolName: string, input: Record<string, unknown>): ApprovalRequest => ({
  toolCallId: "1",
  toolName,
  access: "write",
  input,
  verdict: "allow",
  reason: "It changes a file.",
});

describe("proposedChange", () => {
  it("reads the file a write_file would overwrite", async () => {
    expect(
      await proposedChange(call("write_file", { path: "notes.txt", content: "new\n" }), reader),
    ).toEqual({ path: "notes.txt", before: "one\ntwo\nthree\n", after: "new\n" });
  });

  it("applies edit_file's edit, append and overwrite to the file as it is", async () => {
    const edit = (input: Record<string, unknown>) =>
      proposedChange(call("edit_file", { path: "notes.txt", ...input }), reader);
    expect((await edit({ mode: "edit", old_text: "two\n", content: "2\n" }))?.after).toBe(
      "one\n2\nthree\n",
    );
    expect((await edit({ mode: "append", content: "four\n" }))?.after).toBe(
      "one\ntwo\nthree\nfour\n",
    );
    expect((await edit({ mode: "overwrite", content: "x\n" }))?.after).toBe("x\n");
    // Old text that is not there once: the old text against the new, without the file.
    expect(await edit({ mode: "edit", old_text: "absent", content: "y" })).toEqual({
      path: "notes.txt",
      before: "absent",
      after: "y",
    });
  });

  it("has nothing to show for a new file, a binary file, a path outside, or another tool", async () => {
    expect(
      await proposedChange(call("write_file", { path: "new.txt", content: "a" }), reader),
    ).toBeUndefined();
    expect(
      await proposedChange(call("write_file", { path: "blob.bin", content: "a" }), reader),
    ).toBeUndefined();
    expect(
      await proposedChange(call("write_file", { path: "outside", content: "a" }), reader),
    ).toBeUndefined();
    expect(
      await proposedChange(call("terminal", { command: "ls", path: "notes.txt" }), reader),
    ).toBeUndefined();
  });
});
