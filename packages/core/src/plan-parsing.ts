// `@xzatoma/core/plan`: reading and validating plans, with their zod schemas. Not on the
// main entry, so that a command that reads no plan loads no zod (docs/explanation/launch-path.md).
export { parsePlan, parsePlanText, planFormatOf } from "./plan/parse-plan.js";
export { PlanError } from "./plan/plan-error.js";
export type { Plan, PlanFormat, PlanInstruction, PlanShape } from "./plan/plan.js";
