import { toolFailure, toolSuccess } from "@xzatoma/core";
import { expect, it } from "vitest";
import { previewToolOutput } from "./tool-preview.js";

it("shows a short command output whole, without the section headers", () => {
  expect(previewToolOutput("terminal", toolSuccess("exit code 0\n--- stdout ---\nok\n"))).toEqual([
    "exit code 0",
    "ok",
  ]);
});

it("shows a long command output by its first and last lines", () => {
  const output = `exit code 0\n${Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join("\n")}\n`;
  expect(previewToolOutput("terminal", toolSuccess(output))).toEqual([
    "exit code 0",
    "line 1",
    "… 17 more lines",
    "line 19",
    "line 20",
  ]);
});

it("shows a diff by its size", () => {
  const diff =
    "Edited notes.md:\n\n--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,3 @@\n-old\n+new\n+more\n same\n";
  expect(previewToolOutput("edit_file", toolSuccess(diff))).toEqual([
    "Edited notes.md: (+2 -1 lines)",
  ]);
});

it("shows content the model read by its size, and nothing for a failure", () => {
  expect(previewToolOutput("read_file", toolSuccess("a\n\nc\n"))).toEqual(["(3 lines, 5 bytes)"]);
  expect(previewToolOutput("terminal", toolFailure("it broke"))).toEqual([]);
});

it("escapes what a tool printed and cuts long lines", () => {
  const [line] = previewToolOutput("terminal", toolSuccess(`\x1b[2J${"x".repeat(300)}`));
  expect(line?.startsWith("\\x1b[2J")).toBe(true);
  expect(line?.length).toBeLessThanOrEqual(101);
});
