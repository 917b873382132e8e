export { planFormatOf, parsePlan, parsePlanText } from "./parse-plan.js";
export { PlanError } from "./plan-error.js";
export { parseYamlStrictly } from "./plan-yaml.js";
export { planToPrompt } from "./plan-prompt.js";
export { createPlanProgress, type PlanProgress } from "./plan-progress.js";
export type { Plan, PlanFormat, PlanInstruction, PlanShape } from "./plan.js";
