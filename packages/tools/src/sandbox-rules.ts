import { readdir } from "node:fs/promises";
import path from "node:path";
import { protectionOf, touchesGitDirectory } from "@xzatoma/safety";
import type { WorkspaceContext } from "./workspace-context.js";

/** What the sandbox reports after a command: changes applied and changes discarded. */
export interface SandboxChanges {
  readonly applied: readonly string[];
  readonly discarded: readonly { readonly path: string; readonly reason: string }[];
  /** Limits of the whole sandbox the command ran into (its memory), one sentence each. */
  readonly limitsReached?: readonly string[];
}

function isGitInternal(relative: string): boolean {
  const first = relative.split(/[\\/]/)[0]?.toLowerCase();
  return first === ".git";
}

/** Git hooks stay read-only even for an approved git command: no git command writes them. */
function isGitHook(relative: string): boolean {
  return /^\.git[\\/]+hooks(?:[\\/]|$)/i.test(relative);
}

/**
 * Why the sandbox must discard a change a command made to `relative` (workspace-relative),
 * or undefined to apply it: the same rules as the file tools, judged by name and by the
 * shape of the directory (a bare-repository look-alike). The top-level `.git` is writable
 * only for a git command a person approved (`writableGit`), hooks never.
 */
export function judgeSandboxChange(
  workspace: WorkspaceContext,
  relative: string,
  writableGit: boolean,
): string | undefined {
  const absolute = path.join(workspace.root, relative);
  if (writableGit && isGitInternal(relative) && !isGitHook(relative)) return undefined;
  const concern = protectionOf(workspace.root, absolute);
  if (concern !== undefined) return `${relative} is protected: ${concern.reason}`;
  if (touchesGitDirectory(workspace.root, absolute)) {
    return `${relative} would make a directory look like a git repository, whose config git obeys on its own`;
  }
  return undefined;
}

/**
 * The protected entries that exist at the top of the workspace, as absolute paths, to bind
 * read-only inside the sandbox (so writes to them fail at once and they cannot be renamed
 * away). Changes anywhere else are judged when the command ends.
 */
export async function protectedEntries(
  workspace: WorkspaceContext,
  writableGit: boolean,
): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(workspace.root);
  } catch {
    return [];
  }
  const entries: string[] = [];
  for (const name of names) {
    const absolute = path.join(workspace.root, name);
    if (writableGit && name.toLowerCase() === ".git") {
      entries.push(path.join(absolute, "hooks"));
      continue;
    }
    if (protectionOf(workspace.root, absolute) !== undefined) entries.push(absolute);
  }
  return entries;
}

/** A note for the model about changes the sandbox did not let through; "" when none. */
export function describeSandboxOutcome(outcome: SandboxChanges): string {
  const limits = (outcome.limitsReached ?? []).map((sentence) => `- ${sentence}`);
  const limitNote =
    limits.length === 0 ? "" : `--- sandbox limits reached ---\n${limits.join("\n")}\n`;
  if (outcome.discarded.length === 0) return limitNote;
  const shown = outcome.discarded.slice(0, 20).map((change) => `- ${change.reason}`);
  const more = outcome.discarded.length > 20 ? `\n- and ${outcome.discarded.length - 20} more` : "";
  return `${limitNote}--- changes discarded by the sandbox ---\nThe command changed protected paths; those changes did not reach the workspace:\n${shown.join("\n")}${more}\n`;
}
