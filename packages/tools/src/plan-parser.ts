// The plan parser (with its zod schemas), imported by the `plan` tool when it reads a plan:
// a run that reads none loads neither (docs/explanation/launch-path.md).
export { parsePlan } from "@xzatoma/core/plan";
