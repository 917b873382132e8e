import { constants } from "node:fs";
import {
  defineTool,
  isXzatomaError,
  planToPrompt,
  toolFailure,
  toolSuccess,
  type Tool,
} from "@xzatoma/core";
import { PLAN_DESCRIPTION } from "./descriptions/plan.js";
import { createContentScreen } from "./secret-content.js";
import { assessRead, describeFsError, recordRead } from "./tool-paths.js";
import type { WorkspaceContext } from "./workspace-context.js";
import { builtinInput } from "./builtin-input.js";

const MAX_PLAN_BYTES = 1024 * 1024;

/** The `plan` tool: reads and validates a plan file inside the workspace. */
export function createPlanTool(workspace: WorkspaceContext): Tool {
  return defineTool({
    name: "plan",
    description: PLAN_DESCRIPTION,
    ...builtinInput("plan"),
    access: "read",
    // A plan file is read like any other: a secret-looking one needs a person's yes.
    async assess({ path }) {
      return assessRead(workspace, [path], "plan");
    },
    async execute({ path }) {
      let text: string;
      try {
        const opened = await workspace.pathGuard.open(path, constants.O_RDONLY);
        try {
          await recordRead(workspace, opened.path);
          const stats = await opened.handle.stat();
          if (!stats.isFile()) return toolFailure(`'${path}' is not a file.`);
          if (stats.size > MAX_PLAN_BYTES)
            return toolFailure(`'${path}' is larger than 1 MiB; that is not a plan.`);
          text = await opened.handle.readFile("utf8");
        } finally {
          await opened.handle.close();
        }
      } catch (error) {
        if (isXzatomaError(error)) return toolFailure(error.message, { refused: true });
        return toolFailure(describeFsError(error, path));
      }
      // The plan's text reaches the model, and so may a parse error quoting it.
      const content = createContentScreen(workspace.exposure, path);
      try {
        // The plan's schemas (and zod) load with the first plan read.
        const { parsePlan } = await import("./plan-parser.js");
        const plan = parsePlan(text, path);
        return content.finish(
          toolSuccess(content.screen(planToPrompt(plan)), {
            shape: plan.shape,
            instructions: plan.instructions.length,
          }),
        );
      } catch (error) {
        if (isXzatomaError(error)) return toolFailure(content.screen(error.message));
        throw error;
      }
    },
  });
}
