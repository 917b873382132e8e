import { z } from "zod";

/** A workspace path in a suite: relative, inside the case's workspace, no `..`. */
const workspacePath = z
  .string()
  .min(1)
  .refine(
    (value) =>
      !value.startsWith("/") &&
      !value.startsWith("~") &&
      !/^[A-Za-z]:/.test(value) &&
      !value.split(/[\\/]/).includes(".."),
    { message: "must be a relative path inside the case's workspace (no '/', '~' or '..')" },
  );

/** A regular expression given as text; refused when it does not compile. */
const pattern = z.string().refine(
  (value) => {
    try {
      new RegExp(value, "u");
      return true;
    } catch {
      return false;
    }
  },
  { message: "is not a valid regular expression" },
);

/** What a file must be after the run: exactly one check. */
const fileExpectationSchema = z
  .strictObject({
    contains: z.string().optional(),
    equals: z.string().optional(),
    matches: pattern.optional(),
    absent: z.literal(true).optional(),
  })
  .refine((value) => Object.keys(value).length === 1, {
    message: "give exactly one of contains, equals, matches or absent: true",
  });

/** What the final answer must say. */
const answerExpectationSchema = z
  .strictObject({
    contains: z.string().optional(),
    matches: pattern.optional(),
    not_contains: z.string().optional(),
  })
  .refine((value) => Object.keys(value).length > 0, {
    message: "give at least one of contains, matches or not_contains",
  });

/** Which tools the run must and must not call. */
const toolsExpectationSchema = z.strictObject({
  called: z.array(z.string().min(1)).optional(),
  not_called: z.array(z.string().min(1)).optional(),
  max_calls: z.int().nonnegative().optional(),
});

/** A case's limits; the configuration's (`agent.max_turns`, ...) apply where absent. */
const limitsSchema = z.strictObject({
  max_turns: z.int().positive().optional(),
  max_tool_calls: z.int().positive().optional(),
  timeout_seconds: z.number().positive().optional(),
});

/** One task of a suite. */
export const evalCaseSchema = z.strictObject({
  /** Unique in the suite; names the case in reports and comparisons. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, {
    message: "must be lower-case letters, digits and dashes",
  }),
  prompt: z.string().trim().min(1),
  /** `write` (default) or `planning` (read-only tools). */
  mode: z.enum(["planning", "write"]).default("write"),
  /** Offer the subagent tools. */
  subagents: z.boolean().default(false),
  /** Files created in the fresh workspace, by relative path. */
  workspace: z.record(workspacePath, z.string()).default({}),
  expect: z
    .strictObject({
      files: z.record(workspacePath, fileExpectationSchema).optional(),
      answer: answerExpectationSchema.optional(),
      tools: toolsExpectationSchema.optional(),
    })
    .default({}),
  limits: limitsSchema.default({}),
  /**
   * The scripted model's replies for this case, read only by the test harness's scripted
   * model server (`evals/smoke.yaml`); `xzatoma eval` ignores it.
   */
  scripted: z.unknown().optional(),
});

/** A suite file: a name and its cases. */
export const evalSuiteSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  cases: z.array(evalCaseSchema).min(1),
});

/** One case after defaults. */
export type EvalCase = z.output<typeof evalCaseSchema>;

/** A suite after defaults. */
export type EvalSuite = z.output<typeof evalSuiteSchema>;

/** What a file must be after the run. */
export type FileExpectation = z.output<typeof fileExpectationSchema>;
