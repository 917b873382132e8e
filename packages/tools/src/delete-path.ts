import { rm } from "node:fs/promises";
import { PathOutsideWorkspaceError } from "@xzatoma/safety";
import { withCheckedParent } from "./anchored-path.js";
import {
  defineTool,
  toolFailure,
  toolSuccess,
  type Tool,
  type ToolAssessment,
} from "@xzatoma/core";
import { DELETE_PATH_DESCRIPTION } from "./descriptions/delete-path.js";
import { blocked, plural, refusal, requirePersonFor, resolveTarget } from "./file-targets.js";
import type { PathConcern } from "@xzatoma/safety";
import {
  DEFAULT_MAX_TREE_ITEMS,
  firstProtected,
  listTree,
  type TreeListing,
} from "./tree-listing.js";
import type { WorkspaceContext } from "./workspace-context.js";
import { builtinInput } from "./builtin-input.js";

/** Options of {@link createDeletePathTool}. */
export interface DeletePathToolOptions {
  /** Trees with more entries are refused. Default 100,000. */
  readonly maxItems?: number;
}

type DeletePlan =
  | {
      readonly ok: true;
      readonly entry: string;
      readonly where: string;
      readonly listing: TreeListing | undefined;
      /** Why the deletion needs a person's yes, when it touches a path that runs code. */
      readonly concern: PathConcern | undefined;
      /** The protected path the concern is about. */
      readonly concernPath: string;
    }
  | { readonly ok: false; readonly refused: boolean; readonly message: string };

/** The `delete_path` tool: deletes a file, a link, or a directory tree when asked recursively. */
export function createDeletePathTool(
  workspace: WorkspaceContext,
  options: DeletePathToolOptions = {},
): Tool {
  const maxItems = options.maxItems ?? DEFAULT_MAX_TREE_ITEMS;

  async function plan(input: { path: string }): Promise<DeletePlan> {
    const target = await resolveTarget(workspace, input.path, "write", "delete");
    if (!target.ok) return { ok: false, refused: true, message: target.message };
    if (target.entry === workspace.root) {
      return {
        ok: false,
        refused: true,
        message: `'${input.path}' is the workspace root; delete_path never deletes it. Delete the entries inside it instead.`,
      };
    }
    const where = workspace.pathGuard.relative(target.entry);
    if (target.entryStats === undefined)
      return {
        ok: true,
        entry: target.entry,
        where,
        listing: undefined,
        concern: target.concern,
        concernPath: where,
      };
    const listing = await listTree(target.entry, maxItems);
    if (listing.tooLarge) {
      return {
        ok: false,
        refused: false,
        message: `'${input.path}' has more than ${plural(maxItems, "item")}; delete smaller parts of it.`,
      };
    }
    const protectedEntry = await firstProtected(workspace, target.entry, listing.entries, {
      kind: "delete",
    });
    if (protectedEntry?.concern.protection === "never") {
      return {
        ok: false,
        refused: true,
        message: `'${input.path}' contains the protected path '${protectedEntry.path}': ${protectedEntry.concern.reason}. No tool may change it.`,
      };
    }
    return {
      ok: true,
      entry: target.entry,
      where,
      listing,
      concern: target.concern ?? protectedEntry?.concern,
      concernPath: target.concern ? where : (protectedEntry?.path ?? where),
    };
  }

  return defineTool({
    name: "delete_path",
    description: DELETE_PATH_DESCRIPTION,
    ...builtinInput("delete_path"),
    access: "write",
    async assess(input): Promise<ToolAssessment> {
      const checked = await plan(input);
      if (!checked.ok) {
        return checked.refused
          ? blocked(checked.message)
          : { verdict: "allow", reason: `the call will fail: ${checked.message}` };
      }
      const items = checked.listing?.entries.length ?? 0;
      // An ordinary deletion runs unasked, as a sandboxed `rm` does; what needs a person
      // (hidden, protected, executable) is raised below.
      return requirePersonFor(
        {
          verdict: "allow",
          reason: `deletes ${plural(items, "item")} under ${checked.where}`,
          summary: `delete ${plural(items, "item")} under ${checked.where}`,
        },
        checked.concernPath,
        checked.concern,
      );
    },
    async execute(input) {
      const checked = await plan(input);
      if (!checked.ok)
        return checked.refused ? refusal(checked.message) : toolFailure(checked.message);
      const listing = checked.listing;
      if (listing === undefined)
        return toolFailure(`'${input.path}' does not exist; nothing was deleted.`);
      const items = listing.entries.length;
      const isDirectory = listing.entries[0]?.kind === "directory";
      if (isDirectory && !input.recursive) {
        return toolFailure(
          `'${input.path}' is a directory with ${plural(items - 1, "item")} in it. Set recursive to true to delete it and everything in it.`,
        );
      }
      try {
        // Anchored to the parent directory the guard opened: a directory on the way swapped
        // for a link since the check cannot turn this into a delete outside the workspace.
        await withCheckedParent(workspace, checked.entry, (entry) =>
          rm(entry, { recursive: isDirectory }),
        );
      } catch (error) {
        if (error instanceof PathOutsideWorkspaceError)
          return toolFailure(
            `'${input.path}' changed while it was being deleted and now points outside the workspace; nothing was deleted.`,
          );
        return toolFailure(
          `'${input.path}' could not be deleted: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return toolSuccess(`Deleted ${checked.where} (${plural(items, "item")}).`, {
        path: checked.where,
        items,
        directory: isDirectory,
      });
    },
  });
}
