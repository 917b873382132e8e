import { describe, expect, it } from "vitest";
import { formatChangeDiff } from "./approval-diff.js";

describe("formatChangeDiff", () => {
  it("shows the changed line with its context, not the whole file", () => {
    const before = ["a", "b", "c", "d", "e", "f", "g", "h", "i", ""].join("\n");
    const after = before.replace("e\n", "E\n");
    const view = formatChangeDiff({ path: "x.txt", before, after }, { color: false });
    expect(view.text).toBe(
      [
        "  --- a/x.txt",
        "  +++ b/x.txt",
        "  @@ -2,7 +2,7 @@",
        "   b",
        "   c",
        "   d",
        "  -e",
        "  +E",
        "   f",
        "   g",
        "   h",
        "",
      ].join("\n"),
    );
    expect(view).toMatchObject({ added: 1, removed: 1, hiddenLines: 0 });
  });

  it("colours removed lines red, added lines green and hunk headings cyan", () => {
    const view = formatChangeDiff({ path: "x", before: "old\n", after: "new\n" }, { color: true });
    expect(view.text).toContain("\x1b[31m-old\x1b[39m");
    expect(view.text).toContain("\x1b[32m+new\x1b[39m");
    expect(view.text).toContain("\x1b[36m@@ -1 +1 @@\x1b[39m");
  });

  it("escapes what the file holds, so its text cannot move the cursor", () => {
    const view = formatChangeDiff(
      { path: "x", before: "safe\n", after: "\x1b[2Kfake\rline\n" },
      { color: false },
    );
    expect(view.text).not.toContain("\x1b");
    expect(view.text).not.toContain("\r");
    expect(view.text).toContain("+\\x1b[2Kfake\\rline");
  });

  it("cuts a long diff and counts what it left out", () => {
    const after = Array.from({ length: 100 }, (_, index) => `line ${index}`).join("\n");
    const view = formatChangeDiff({ path: "x", before: "", after }, { color: false, maxLines: 10 });
    expect(view.text.split("\n").filter(Boolean)).toHaveLength(10);
    // 3 headings, 100 added lines and the "no newline at end of file" mark.
    expect(view.hiddenLines).toBe(94);
    expect(view.added).toBe(100);
  });
});
