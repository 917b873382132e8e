// The delegation tools' zod input schemas, imported on a tool's first call; what the model
// reads is generated from them (model-input-schemas.test.ts).
import { z } from "zod";
import { MAX_TASK_TURNS } from "./task-limits.js";

/** One task: the input of `subagent`, and each of `parallel_subagent`'s tasks. */
export const taskInput = z
  .object({
    label: z
      .string()
      .trim()
      .min(1)
      .max(80)
      .describe("A short name for the task, shown to the user"),
    task_prompt: z
      .string()
      .trim()
      .min(1)
      .describe("The whole task: the subagent starts with no other context than this"),
    summary_prompt: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe("What the answer should contain (default: a concise summary of the findings)"),
    allowed_tools: z
      .array(z.string())
      .optional()
      .describe("Tools the subagent may use (default: all of yours)"),
    max_turns: z
      .number()
      .int()
      .min(1)
      .max(MAX_TASK_TURNS)
      .optional()
      .describe("Model requests the subagent may make"),
  })
  .strict();

/** The input of `parallel_subagent`. */
export const parallelInput = z
  .object({
    tasks: z.array(taskInput).min(1).max(20).describe("The tasks, each for its own subagent"),
    max_concurrent: z
      .number()
      .int()
      .min(1)
      .max(20)
      .optional()
      .describe("Subagents running at once"),
    fail_fast: z
      .boolean()
      .optional()
      .describe("Stop the remaining tasks when one fails (default false)"),
  })
  .strict();
