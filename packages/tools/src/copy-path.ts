import { rm } from "node:fs/promises";
import { toolSuccess, type Tool } from "@xzatoma/core";
import { withCheckedParent } from "./anchored-path.js";
import { COPY_PATH_DESCRIPTION } from "./descriptions/copy-path.js";
import { plural } from "./file-targets.js";
import { copyTree, skippedNotes } from "./tree-copy.js";
import { createTransferTool, type TransferToolOptions } from "./transfer-tool.js";
import type { WorkspaceContext } from "./workspace-context.js";

/** The `copy_path` tool: copies a file or directory tree without following symlinks. */
export function createCopyPathTool(
  workspace: WorkspaceContext,
  options: TransferToolOptions = {},
): Tool {
  return createTransferTool(
    workspace,
    {
      name: "copy_path",
      description: COPY_PATH_DESCRIPTION,
      operation: "copy",
      async run(plan) {
        if (plan.existing)
          await withCheckedParent(workspace, plan.destination, (entry) =>
            rm(entry, { recursive: true, force: true }),
          );
        const report = await copyTree(
          workspace,
          plan.source,
          plan.destination,
          plan.listing.entries,
        );
        return toolSuccess(
          `Copied ${plan.sourceName} to ${plan.destinationName} (${plural(report.items, "item")}, ${report.bytes} bytes).${skippedNotes(report)}`,
          {
            source: plan.sourceName,
            destination: plan.destinationName,
            items: report.items,
            bytes: report.bytes,
            skippedLinks: report.skippedLinks.length,
            replaced: plan.existing !== undefined,
          },
        );
      },
    },
    options,
  );
}
