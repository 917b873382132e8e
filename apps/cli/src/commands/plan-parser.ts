// The plan parser (with its zod schemas), imported by `run --plan` when it reads the plan: a
// run without a plan loads neither (docs/explanation/launch-path.md).
export { parsePlan } from "@xzatoma/core/plan";
