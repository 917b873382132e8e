import type { z } from "zod";
import { readMarkdownPlan } from "./markdown-plan.js";
import { PlanError } from "./plan-error.js";
import { parseYamlStrictly } from "./plan-yaml.js";
import { planFormatOf } from "./plan-format.js";
import { planSchemas } from "./plan-schema.js";
import type { Plan, PlanFormat, PlanInstruction } from "./plan.js";

export { planFormatOf };

function fieldPath(issuePath: readonly PropertyKey[]): string {
  return issuePath.reduce<string>(
    (text, key) =>
      typeof key === "number"
        ? `${text}[${key}]`
        : text === ""
          ? String(key)
          : `${text}.${String(key)}`,
    "",
  );
}

function valueAt(value: unknown, keys: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function validate<T extends z.ZodType>(schema: T, value: unknown, file: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue ? fieldPath(issue.path) || "(plan)" : "(plan)";
  // zod leaves `input` out of its issues: whether the field is missing is read from the value.
  const missing = issue?.code === "invalid_type" && valueAt(value, issue.path) === undefined;
  const message = missing ? "is required" : (issue?.message ?? "is invalid");
  throw new PlanError(`${file}: ${field}: ${message}`, file, field);
}

function contextLines(context: unknown): string[] {
  if (context === undefined) return [];
  if (typeof context === "string")
    return context
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
  if (Array.isArray(context)) return context.map(String);
  return Object.entries(context as Record<string, unknown>).map(
    ([key, value]) => `${key}: ${String(value)}`,
  );
}

function fromObject(value: unknown, file: string): Plan {
  if (value === null || value === undefined)
    throw new PlanError(`${file}: the plan file is empty.`, file);
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new PlanError(
      `${file}: a plan must be a mapping of fields, not ${Array.isArray(value) ? "a list" : typeof value}.`,
      file,
    );
  }
  const fields = value as Record<string, unknown>;
  if ("tasks" in fields || "goals" in fields) {
    const plan = validate(planSchemas().taskListPlanSchema, fields, file);
    const instructions: PlanInstruction[] = plan.tasks.map((task, index) => ({
      number: index + 1,
      id: task.id,
      text: task.description,
      dependsOn: task.dependencies,
      ...(task.priority ? { priority: task.priority } : {}),
    }));
    return {
      shape: "task-list",
      name: plan.name,
      goal: plan.goals.length > 0 ? plan.goals.join("; ") : (plan.description ?? plan.name),
      ...(plan.description ? { description: plan.description } : {}),
      context: plan.goals.length > 1 ? plan.goals.map((goal) => `goal: ${goal}`) : [],
      instructions,
      ...(plan.max_iterations ? { maxTurns: plan.max_iterations } : {}),
      ...(plan.allow_dangerous === undefined ? {} : { allowDangerous: plan.allow_dangerous }),
    };
  }
  if ("goal" in fields || "instructions" in fields) {
    const plan = validate(planSchemas().goalPlanSchema, fields, file);
    return {
      shape: "goal-instructions",
      name: plan.name?.trim() || plan.goal,
      goal: plan.goal,
      ...(plan.description ? { description: plan.description } : {}),
      context: contextLines(plan.context),
      instructions: plan.instructions.map((text, index) => ({
        number: index + 1,
        id: String(index + 1),
        text,
        dependsOn: [],
      })),
    };
  }
  const plan = validate(planSchemas().stepsPlanSchema, fields, file);
  return {
    shape: "steps",
    name: plan.name,
    goal: plan.description?.trim() || plan.name,
    ...(plan.description ? { description: plan.description } : {}),
    context: contextLines(plan.context),
    instructions: plan.steps.map((step, index) => ({
      number: index + 1,
      id: String(index + 1),
      title: step.name,
      text: step.action,
      ...(step.context ? { context: step.context } : {}),
      dependsOn: [],
    })),
  };
}

/**
 * Parses and validates a plan. `file` names the source in every error message; the
 * format comes from its extension unless given.
 *
 * @example
 * const plan = parsePlan(await readFile("plan.yaml", "utf8"), "plan.yaml");
 * plan.instructions.length; // 3
 */
export function parsePlan(
  text: string,
  file: string,
  format: PlanFormat = planFormatOf(file),
): Plan {
  if (text.trim() === "") throw new PlanError(`${file}: the plan file is empty.`, file);
  let value: unknown;
  if (format === "markdown") {
    value = readMarkdownPlan(text);
  } else if (format === "json") {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new PlanError(`${file}: not valid JSON: ${(error as Error).message}`, file);
    }
  } else {
    try {
      value = parseYamlStrictly(text);
    } catch (error) {
      const message = (error as Error).message.split("\n")[0] ?? "";
      throw new PlanError(`${file}: not valid YAML: ${message}`, file);
    }
  }
  return fromObject(value, file);
}

/** Parses a plan carried as text of unknown format (an event payload): JSON when it looks like JSON, else YAML. */
export function parsePlanText(text: string, source: string): Plan {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      return fromObject(JSON.parse(trimmed), source);
    } catch (error) {
      if (error instanceof PlanError) throw error;
    }
  }
  return parsePlan(
    text,
    source,
    /^#\s/m.test(trimmed) && !trimmed.includes(":\n") ? "markdown" : "yaml",
  );
}
