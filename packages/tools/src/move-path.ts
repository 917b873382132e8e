import { rename, rm } from "node:fs/promises";
import path from "node:path";
import { toolSuccess, type Tool } from "@xzatoma/core";
import { makeDirectories, withCheckedParent } from "./anchored-path.js";
import { MOVE_PATH_DESCRIPTION } from "./descriptions/move-path.js";
import { plural } from "./file-targets.js";
import { copyTree, skippedNotes } from "./tree-copy.js";
import { createTransferTool, type TransferToolOptions } from "./transfer-tool.js";
import type { WorkspaceContext } from "./workspace-context.js";

/** The `move_path` tool: renames a file, directory or symlink; copies and deletes across devices. */
export function createMovePathTool(
  workspace: WorkspaceContext,
  options: TransferToolOptions = {},
): Tool {
  return createTransferTool(
    workspace,
    {
      name: "move_path",
      description: MOVE_PATH_DESCRIPTION,
      operation: "move",
      async run(plan) {
        if (plan.existing)
          await withCheckedParent(workspace, plan.destination, (entry) =>
            rm(entry, { recursive: true, force: true }),
          );
        await makeDirectories(workspace, path.dirname(plan.destination));
        const items = plan.listing.entries.length;
        const metadata = {
          source: plan.sourceName,
          destination: plan.destinationName,
          items,
          replaced: plan.existing !== undefined,
        };
        try {
          // Both ends anchored to their directories as the guard opened them.
          await withCheckedParent(workspace, plan.source, (source) =>
            withCheckedParent(workspace, plan.destination, (destination) =>
              rename(source, destination),
            ),
          );
          return toolSuccess(
            `Moved ${plan.sourceName} to ${plan.destinationName} (${plural(items, "item")}).`,
            metadata,
          );
        } catch (error) {
          if ((error as { code?: unknown }).code !== "EXDEV") throw error;
        }
        // Another file system inside the workspace: copy, then delete the source.
        const report = await copyTree(
          workspace,
          plan.source,
          plan.destination,
          plan.listing.entries,
        );
        await withCheckedParent(workspace, plan.source, (entry) =>
          rm(entry, { recursive: true, force: true }),
        );
        return toolSuccess(
          `Moved ${plan.sourceName} to ${plan.destinationName} (${plural(report.items, "item")}, copied across file systems).${skippedNotes(report)}`,
          { ...metadata, items: report.items },
        );
      },
    },
    options,
  );
}
