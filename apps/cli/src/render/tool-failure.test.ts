import { describe, expect, it } from "vitest";
import { describeToolFailure } from "./tool-failure.js";

const report = (results: object[]) => JSON.stringify({ results, successful: 0 }, null, 2);

describe("describeToolFailure", () => {
  it("gives a failed parallel_subagent one line per person, not its JSON report", () => {
    const line = describeToolFailure(
      "parallel_subagent",
      report([
        { label: "docs", success: false, error: "Failed: the model could not be reached." },
        { label: "tests", success: false, error: "Not started: an earlier task failed." },
      ]),
    );
    expect(line).toBe(
      "all 2 tasks failed: docs: Failed: the model could not be reached.; tests: Not started: an earlier task failed.",
    );
    expect(line).not.toContain("{");
  });

  it("counts the tasks it does not name", () => {
    const tasks = Array.from({ length: 6 }, (_, index) => ({
      label: `t${index}`,
      success: false,
      error: "x",
    }));
    expect(describeToolFailure("parallel_subagent", report(tasks))).toMatch(/; and 2 more$/);
  });

  it("shows another failure's first line and how many lines it left out", () => {
    expect(describeToolFailure("terminal", "Exit 1.\nline\nline")).toBe("Exit 1. (2 more lines)");
    expect(describeToolFailure("read_file", "No such file.")).toBe("No such file.");
  });
});
