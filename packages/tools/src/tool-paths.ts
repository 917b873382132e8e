import { isXzatomaError, toolFailure, type ToolResult } from "@xzatoma/core";
import type { WorkspaceContext } from "./workspace-context.js";

/** A guarded path, or the failure the model reads when the guard refused it. */
export type GuardedPath =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly failure: ToolResult };

/** Resolves a tool's path argument through the workspace's path guard. */
export async function guardPath(workspace: WorkspaceContext, input: string): Promise<GuardedPath> {
  try {
    return { ok: true, path: await workspace.pathGuard.resolve(input) };
  } catch (error) {
    if (isXzatomaError(error))
      return { ok: false, failure: toolFailure(error.message, { refused: true }) };
    throw error;
  }
}

/** Words a file-system error for the model, naming the path it was given. */
export function describeFsError(error: unknown, input: string): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case "ENOENT":
      return `'${input}' does not exist. Use list_directory to see what is there.`;
    case "ELOOP":
      return `'${input}' changed into a symlink after it was checked; it was not opened.`;
    case "EACCES":
    case "EPERM":
      return `'${input}' cannot be read: permission denied.`;
    case "ENOTDIR":
      return `A part of '${input}' is not a directory.`;
    default:
      return `'${input}' could not be opened: ${error instanceof Error ? error.message : String(error)}`;
  }
}
