import { isXzatomaError, toolFailure, type ToolAssessment, type ToolResult } from "@xzatoma/core";
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

/**
 * The judgement of a tool call that reads the content of `inputs`: `allow`, or `confirm`
 * when one looks secret or is hard-linked (its content may come from outside). Paths the
 * guard refuses are left to `execute`, which reports them.
 */
export async function assessRead(
  workspace: WorkspaceContext,
  inputs: readonly string[],
  toolName: string,
): Promise<ToolAssessment> {
  for (const input of inputs) {
    let real: string;
    try {
      real = await workspace.pathGuard.resolve(input);
    } catch {
      continue;
    }
    const concern = await workspace.pathGuard.readConcern(real);
    if (concern !== undefined) {
      // A person's yes, not a mode's: what the model reads reaches its provider.
      return {
        verdict: "confirm",
        requiresPerson: true,
        reason: `${concern}; reading it needs a person's yes`,
        summary: `${toolName} ${workspace.pathGuard.relative(real)}`,
      };
    }
  }
  return { verdict: "allow", reason: `${toolName} only reads.` };
}

/** Records in the session's exposure tracker that a secret-looking or hard-linked file was read. */
export async function recordRead(workspace: WorkspaceContext, real: string): Promise<void> {
  const concern = await workspace.pathGuard.readConcern(real);
  if (concern !== undefined)
    workspace.exposure.record(`read ${workspace.pathGuard.relative(real)}`);
}
