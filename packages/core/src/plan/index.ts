// Reading a plan (`parsePlan`, `parsePlanText`) needs its zod schemas: it is the
// `@xzatoma/core/plan` entry (plan-parsing.ts), so that a command reading no plan loads none.
export { planFormatOf } from "./plan-format.js";
export { PlanError } from "./plan-error.js";
export { parseYamlStrictly } from "./plan-yaml.js";
export { planToPrompt } from "./plan-prompt.js";
export { createPlanProgress, type PlanProgress } from "./plan-progress.js";
export type { Plan, PlanFormat, PlanInstruction, PlanShape } from "./plan.js";
