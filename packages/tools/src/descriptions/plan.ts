// The text the model reads for `plan`; snapshotted in descriptions.test.ts.
export const PLAN_DESCRIPTION = `Read a plan file (YAML, JSON or Markdown): returns its goal, context and numbered instructions.`;
