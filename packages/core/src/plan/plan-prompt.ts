import type { Plan } from "./plan.js";

/**
 * Translates a plan into the prompt XZatoma sends: the goal, the context, and the
 * instructions as numbered guidance.
 */
export function planToPrompt(plan: Plan): string {
  const lines = ["You are assisting with the following task:", "", `GOAL: ${plan.goal}`];
  if (plan.name !== plan.goal) lines.push(`PLAN: ${plan.name}`);
  if (plan.context.length > 0) {
    lines.push("", "CONTEXT:", ...plan.context.map((entry) => `- ${entry}`));
  }
  lines.push("", "INSTRUCTIONS (follow as guidance):");
  for (const instruction of plan.instructions) {
    const title = instruction.title ? `${instruction.title}: ` : "";
    const after =
      instruction.dependsOn.length > 0
        ? ` (after ${instruction.dependsOn
            .map((id) => plan.instructions.find((other) => other.id === id)?.number ?? id)
            .join(", ")})`
        : "";
    lines.push(`${instruction.number}. ${title}${instruction.text}${after}`);
    if (instruction.context)
      lines.push(...instruction.context.split("\n").map((line) => `   ${line}`));
  }
  lines.push(
    "",
    "Use the available tools to accomplish this goal. You may adapt your approach as needed, but try to follow the instructions provided.",
  );
  return lines.join("\n");
}
