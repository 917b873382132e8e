import { z } from "zod";

const LIST_ITEM = /^(?:[-*+]|\d+[.)])\s+(.*)$/;

/**
 * `instructions` written as one string: a list (every non-empty line starts with `-`, `*`,
 * `+`, `1.` or `1)`) is one instruction per item; any other text is one instruction, the
 * whole block.
 */
export function instructionsFromText(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  if (lines.length === 0) return [];
  const items = lines.map((line) => LIST_ITEM.exec(line)?.[1]?.trim());
  if (items.every((item) => item !== undefined && item !== "")) return items as string[];
  return [text.trim()];
}

function buildPlanSchemas() {
  const text = z.string().trim().min(1, "must not be empty");
  const contextValue = z.union([
    z.string(),
    z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    z.array(z.string()),
  ]);

  /** The goal shape: `goal`, `context`, `instructions`. */
  const goalPlanSchema = z.object({
    name: z.string().optional(),
    goal: text,
    description: z.string().optional(),
    context: contextValue.optional(),
    instructions: z.preprocess(
      (value) => (typeof value === "string" ? instructionsFromText(value) : value),
      z
        .array(text, "must be a list of instructions or a text")
        .min(1, "must list at least one instruction"),
    ),
  });

  /** The original's shape: `name`, `steps` with `action`. */
  const stepsPlanSchema = z.object({
    name: text,
    description: z.string().optional(),
    version: z.string().optional(),
    action: z.string().optional(),
    context: contextValue.optional(),
    steps: z
      .array(
        z.object({
          name: text,
          action: text,
          context: z.string().optional(),
        }),
      )
      .min(1, "must have at least one step"),
  });

  /** The task list of XZepr events: `goals`, `tasks` with dependencies. */
  const taskListPlanSchema = z.object({
    id: z.string().optional(),
    name: text,
    description: z.string().optional(),
    action: z.string().optional(),
    version: z.string().optional(),
    goals: z.array(text).default([]),
    tasks: z
      .array(
        z.object({
          id: text,
          description: text,
          priority: z.string().optional(),
          dependencies: z.array(z.string()).default([]),
        }),
      )
      .min(1, "must have at least one task"),
    max_iterations: z.number().int().positive().optional(),
    allow_dangerous: z.boolean().optional(),
    result_mentions: z.array(z.string()).optional(),
  });
  return { goalPlanSchema, stepsPlanSchema, taskListPlanSchema };
}

let built: ReturnType<typeof buildPlanSchemas> | undefined;

/**
 * The three plan shapes, built the first time a plan is parsed: a command that reads no plan
 * does not construct them.
 */
export function planSchemas(): ReturnType<typeof buildPlanSchemas> {
  built ??= buildPlanSchemas();
  return built;
}
