// Every built-in tool, for the tests that read their schemas and input tables: nothing runs.
import { realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import type { PlanProgress, Tool } from "@xzatoma/core";
import type { Sandbox } from "@xzatoma/safety";
import { createPlanProgressTool } from "./plan-progress-tool.js";
import { createStandardTools } from "./standard-tools.js";
import { fetchConfigSchema, terminalConfigSchema, toolsConfigSchema } from "./tools-config.js";
import { createWorkspaceContext } from "./workspace-context.js";

/** The standard tools of a default configuration and the plan progress tool. */
export async function everyBuiltinTool(): Promise<Tool[]> {
  const workspace = createWorkspaceContext({ root: await realpath(tmpdir()) });
  const standard = createStandardTools(
    workspace,
    {
      tools: toolsConfigSchema.parse({}),
      terminal: terminalConfigSchema.parse({}),
      fetch: fetchConfigSchema.parse({}),
    },
    // Nothing runs: only the tools' schemas are read.
    { sandbox: {} as Sandbox },
  );
  await standard.close();
  return [...standard.tools, createPlanProgressTool({} as PlanProgress)];
}
