import type { ToolResult } from "@xzatoma/core";
import { toTerminalSafeLineCut } from "./terminal-safe.js";

/** Tools whose output is content the model reads (a file, a listing): shown as a size only. */
const CONTENT_TOOLS = new Set([
  "read_file",
  "list_directory",
  "find_path",
  "grep",
  "fetch",
  "file_metadata",
]);

/** Lines kept from each end of a longer output. */
const EDGE_LINES = 2;
const WIDTH = 100;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/**
 * A short view of what a successful tool call returned, for a person watching a run: a
 * command's first and last lines, a diff's size (`+3 -1 lines`), the size of content the
 * model read. Every line is escaped for the terminal and cut to 100 characters; a failed
 * call has no preview (its error is shown instead).
 *
 * @example
 * previewToolOutput("terminal", toolSuccess("exit code 0\nok\n")); // ["exit code 0", "ok"]
 */
export function previewToolOutput(toolName: string, result: ToolResult): string[] {
  if (!result.success) return [];
  const all = result.output.split("\n").map((line) => line.trimEnd());
  if (all.some((line) => line.startsWith("@@ "))) {
    const added = all.filter((line) => line.startsWith("+") && !line.startsWith("+++")).length;
    const removed = all.filter((line) => line.startsWith("-") && !line.startsWith("---")).length;
    const heading = all.find((line) => line !== "") ?? "";
    return [toTerminalSafeLineCut(`${heading} (+${added} -${removed} lines)`, WIDTH)];
  }
  if (CONTENT_TOOLS.has(toolName)) {
    const count = result.output === "" ? 0 : result.output.replace(/\n$/, "").split("\n").length;
    return [`(${plural(count, "line")}, ${Buffer.byteLength(result.output)} bytes)`];
  }
  const lines = all.filter((line) => line !== "" && !/^--- .* ---$/.test(line));
  const shown =
    lines.length <= 2 * EDGE_LINES + 1
      ? lines
      : [
          ...lines.slice(0, EDGE_LINES),
          `… ${plural(lines.length - 2 * EDGE_LINES, "more line")}`,
          ...lines.slice(-EDGE_LINES),
        ];
  return shown.map((line) => toTerminalSafeLineCut(line, WIDTH));
}
