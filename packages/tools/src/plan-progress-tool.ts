import { defineTool, toolFailure, toolSuccess, type PlanProgress, type Tool } from "@xzatoma/core";
import { builtinInput } from "./builtin-input.js";

/** The text the model reads for `mark_instruction_done`. */
export const MARK_INSTRUCTION_DONE_DESCRIPTION = `Mark an instruction of the plan you are carrying out as done, by its number, once you have finished it. Returns the plan's progress.`;

/**
 * `mark_instruction_done`: lets the model report progress through a plan, so the run can
 * say `Completed 2/4 instructions`.
 */
export function createPlanProgressTool(progress: PlanProgress): Tool {
  return defineTool({
    name: "mark_instruction_done",
    description: MARK_INSTRUCTION_DONE_DESCRIPTION,
    ...builtinInput("mark_instruction_done"),
    access: "read",
    async execute({ number }) {
      if (!progress.complete(number)) {
        return toolFailure(`There is no instruction ${number}; the plan has ${progress.total}.`);
      }
      return toolSuccess(progress.summary(), {
        completed: progress.completed,
        total: progress.total,
      });
    },
  });
}
