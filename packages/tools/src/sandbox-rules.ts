import { lstatSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { judgeFileChange, protectionOf, type FileChangeKind } from "@xzatoma/safety";
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
 * or undefined to apply it: the one judgement of file changes (`judgeFileChange`), as the
 * file tools use it. Commands may write the rest of the workspace as builds need, hidden
 * paths and executables included (`.venv`, `node_modules/.bin`, `target/`): those are
 * applied and named in the report ({@link sandboxReport}). What only a person may write
 * (the named entries, a held home directory's startup files) and what no tool writes
 * (version-control internals, a git-repository shape, the paths git resolves from its
 * configuration) are discarded. The top-level `.git` is writable only for a git command a
 * person approved (`writableGit`), hooks never. `change` is how the command changed the
 * path (pass the apply's own: a link above a configured path is refused as a link).
 * A change it lets through is first recorded by the workspace's change recorder, if any.
 */
export function judgeSandboxChange(
  workspace: WorkspaceContext,
  relative: string,
  writableGit: boolean,
  change: FileChangeKind = "write",
): string | undefined {
  const refusal = refusalOf(workspace, relative, writableGit, change);
  // The apply calls this just before each change it makes: what the change replaces is
  // recorded here (a failure to record discards the change, as a judge that throws does).
  if (refusal === undefined) workspace.changes?.recordBefore(path.join(workspace.root, relative));
  return refusal;
}

function refusalOf(
  workspace: WorkspaceContext,
  relative: string,
  writableGit: boolean,
  change: FileChangeKind,
): string | undefined {
  if (writableGit && isGitInternal(relative) && !isGitHook(relative)) return undefined;
  const concern = judgeFileChange(workspace.root, relative, change);
  if (concern === undefined) return undefined;
  if (concern.protection !== "never" && concern.sandbox === "report") return undefined;
  return `${relative} is protected: ${concern.reason}`;
}

/** A change the sandbox applied that the person should see: a hidden path or an executable. */
export interface ReportedChange {
  readonly path: string;
  readonly reason: string;
}

/**
 * The applied changes of a command that other programs may run on their own: every hidden
 * path (outside the inert names) and every executable file it made or changed, with the
 * reason, as the workspace has them now. Deleted paths are not listed.
 */
export function sandboxReport(
  workspace: WorkspaceContext,
  outcome: SandboxChanges,
): ReportedChange[] {
  const reported: ReportedChange[] = [];
  for (const relative of outcome.applied) {
    let mode: number;
    try {
      mode = lstatSync(path.join(workspace.root, relative)).mode;
    } catch {
      continue;
    }
    const concern = judgeFileChange(workspace.root, relative, "write", { newMode: mode });
    if (concern !== undefined) reported.push({ path: relative, reason: concern.reason });
  }
  return reported;
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

/** At most this many reported paths are named in the note; the rest are counted. */
const MAX_REPORTED = 40;

/**
 * The note naming the hidden paths and executables a command made or changed that reached
 * the workspace ({@link sandboxReport}), for the model and the person; "" when none. The
 * terminal appends it to {@link describeSandboxOutcome}'s note.
 */
export function describeSandboxReport(
  workspace: WorkspaceContext,
  outcome: SandboxChanges,
): string {
  const reported = sandboxReport(workspace, outcome);
  if (reported.length === 0) return "";
  const shown = reported
    .slice(0, MAX_REPORTED)
    .map((change) => `- ${change.path}: ${change.reason}`);
  const more =
    reported.length > MAX_REPORTED ? `\n- and ${reported.length - MAX_REPORTED} more` : "";
  return `--- hidden paths and executables the command made or changed ---\nThese reached the workspace, and other programs may run them on their own; look at them before you build, commit or open the project:\n${shown.join("\n")}${more}\n`;
}
