import {
  defineTool,
  toolFailure,
  type Tool,
  type ToolAssessment,
  type ToolResult,
} from "@xzatoma/core";
import { blocked, describeKind, plural, refusal } from "./file-targets.js";
import { planTransfer, type TransferInput, type TransferPlan } from "./transfer-plan.js";
import { DEFAULT_MAX_TREE_ITEMS } from "./tree-listing.js";
import type { WorkspaceContext } from "./workspace-context.js";
import { builtinInput } from "./builtin-input.js";

/** Options of the copy_path and move_path tools. */
export interface TransferToolOptions {
  /** Trees with more entries are refused. Default 100,000. */
  readonly maxItems?: number;
}

/** What judging a transfer established for its execution. */
interface TransferFacts {
  /** No destination existed: the transfer must not replace one that appeared since. */
  readonly destinationFree?: true;
}

/** Builds copy_path or move_path: both check the same way and differ in what they run. */
export function createTransferTool(
  workspace: WorkspaceContext,
  definition: {
    readonly name: "copy_path" | "move_path";
    readonly description: string;
    readonly operation: "copy" | "move";
    readonly run: (plan: Extract<TransferPlan, { ok: true }>) => Promise<ToolResult>;
  },
  options: TransferToolOptions = {},
): Tool {
  const maxItems = options.maxItems ?? DEFAULT_MAX_TREE_ITEMS;
  const plan = (input: TransferInput) =>
    planTransfer(workspace, input, definition.operation, maxItems);
  return defineTool({
    name: definition.name,
    description: definition.description,
    ...builtinInput(definition.name),
    access: "write",
    async assess(input): Promise<ToolAssessment<TransferFacts>> {
      const checked = await plan(input);
      if (!checked.ok) {
        return checked.kind === "refused"
          ? blocked(checked.message)
          : { verdict: "allow", reason: `the call will fail: ${checked.message}` };
      }
      const what = `${checked.sourceName} to ${checked.destinationName} (${plural(checked.listing.entries.length, "item")})`;
      const raise = (assessment: ToolAssessment<TransferFacts>): ToolAssessment<TransferFacts> =>
        checked.concern === undefined
          ? assessment
          : {
              ...assessment,
              verdict: "confirm",
              reason: `${assessment.reason}; ${checked.concern}`,
              ...(checked.requiresPerson ? { requiresPerson: true } : {}),
            };
      // Replacing an ordinary destination runs unasked, as a sandboxed `cp -r` or `mv` does.
      if (checked.existing) {
        return raise({
          verdict: "allow",
          reason: `replaces the existing ${describeKind(checked.existing)} ${checked.destinationName}`,
          summary: `${definition.operation} ${what}, replacing the existing ${describeKind(checked.existing)} ${checked.destinationName} (${plural(checked.existingItems, "item")})`,
        });
      }
      return raise({
        verdict: "allow",
        reason: `${definition.operation === "copy" ? "copies" : "moves"} ${what}`,
        // Judged with no destination to replace: it must not replace one that appeared since.
        facts: { destinationFree: true as const },
      });
    },
    async execute(input, context) {
      const checked = await plan(input);
      if (!checked.ok)
        return checked.kind === "refused" ? refusal(checked.message) : toolFailure(checked.message);
      if (checked.existing && context.assessment?.facts?.destinationFree === true) {
        return toolFailure(
          `'${checked.destinationName}' appeared after this call was checked, so it was not replaced. Call ${definition.name} again if you mean to replace it.`,
        );
      }
      try {
        return await definition.run(checked);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return toolFailure(
          `Could not ${definition.operation} '${checked.sourceName}' to '${checked.destinationName}': ${reason}. Check both paths with list_directory; part of the work may be done.`,
        );
      }
    },
  });
}
