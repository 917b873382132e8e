// The text the model reads for `plan`; snapshotted in descriptions.test.ts.
export const PLAN_DESCRIPTION = `Read a plan file from the workspace and get its goal, context and numbered instructions.

Give \`path\` relative to the workspace root. Plans are YAML (.yaml, .yml), JSON (.json) or Markdown (.md), in any of three shapes: goal/context/instructions, name/steps (each step with an action), or goals/tasks with dependencies. An invalid plan comes back as an error naming the file and the field to fix.`;
