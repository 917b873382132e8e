import { describe, expect, it } from "vitest";
import { assistantMessage, toolMessage, userMessage } from "./message.js";
import { addToSummary, createSummaryStats, MAX_FILES_KEPT, renderSummary } from "./summary.js";
import { pathsInToolInput } from "./tool-paths.js";

describe("pathsInToolInput", () => {
  it("finds paths in the usual argument names", () => {
    expect(pathsInToolInput({ path: "a.ts", start_line: 3 })).toEqual(["a.ts"]);
    expect(
      pathsInToolInput({ source_path: "a", destination_path: "b", source: "c", destination: "d" }),
    ).toEqual(["c", "a", "d", "b"]);
    expect(pathsInToolInput({ path_a: "x", path_b: "y", paths: ["z", 3, "x"] })).toEqual([
      "z",
      "x",
      "y",
    ]);
  });

  it("ignores what is not a path", () => {
    expect(pathsInToolInput("raw text")).toEqual([]);
    expect(pathsInToolInput(null)).toEqual([]);
    expect(pathsInToolInput({ command: "ls", source: "line 1\nline 2" })).toEqual([]);
    expect(pathsInToolInput({ file: "https://example.com/a" })).toEqual([]);
  });
});

describe("renderSummary", () => {
  it("stays bounded however much was pruned", () => {
    const stats = createSummaryStats();
    for (let index = 0; index < 5_000; index += 1) {
      addToSummary(stats, userMessage(`request ${index} ${"x".repeat(500)}`), index);
      addToSummary(
        stats,
        assistantMessage("", [
          { id: `${index}`, name: `tool_${index % 40}`, input: { path: `f${index}.ts` } },
        ]),
        index,
      );
      addToSummary(
        stats,
        toolMessage({
          toolCallId: `${index}`,
          toolName: `tool_${index % 40}`,
          content: "",
          isError: index % 7 === 0,
        }),
        index,
      );
    }
    expect(stats.files.size).toBe(MAX_FILES_KEPT);
    const text = renderSummary({ modelText: undefined, stats });
    expect(text.length).toBeLessThan(2_000);
    expect(text).toContain("15000 messages (turns 0–4999)");
    expect(text).toContain("and 25 more"); // tools beyond the 15 shown
    expect(text).toContain("f4999.ts, and 4980 more");
    expect(text).toContain('- "request 4999 xxx');
  });
});
