import { createPlanProgress, createToolRegistry } from "@xzatoma/core";
import { parsePlan } from "@xzatoma/core/plan";
import { expect, it } from "vitest";
import { createPlanProgressTool } from "./plan-progress-tool.js";

it("marks instructions done and reports progress, refusing numbers the plan lacks", async () => {
  const plan = parsePlan(
    "goal: tidy\ninstructions:\n  - list files\n  - delete temp files\n",
    "p.yaml",
  );
  const progress = createPlanProgress(plan);
  const registry = createToolRegistry();
  registry.register(createPlanProgressTool(progress));
  const call = (number: number) =>
    registry.execute(
      { toolCallId: "1", toolName: "mark_instruction_done", input: JSON.stringify({ number }) },
      { signal: new AbortController().signal },
    );
  expect((await call(1)).output).toBe(
    "Completed 1/2 instructions\n✓ list files\n○ delete temp files",
  );
  expect((await call(3)).error).toBe("There is no instruction 3; the plan has 2.");
});
