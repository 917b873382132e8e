import { lstat } from "node:fs/promises";
import type { Stats } from "node:fs";
import path from "node:path";
import { isXzatomaError, toolFailure, type ToolAssessment, type ToolResult } from "@xzatoma/core";
import type { FileChangeKind, PathConcern } from "@xzatoma/safety";
import type { WorkspaceContext } from "./workspace-context.js";

/** A path argument resolved through the guard, or the refusal the model reads. */
export type Target =
  | {
      readonly ok: true;
      /** The real path, every symlink resolved. */
      readonly real: string;
      /** The entry itself: the real parent plus the last name, so a final symlink stays a link. */
      readonly entry: string;
      /** What is at `real`, or undefined when nothing is yet. */
      readonly stats: Stats | undefined;
      /** What is at `entry` (lstat: a symlink stays a symlink), or undefined. */
      readonly entryStats: Stats | undefined;
      /** For writes: why the path needs a person's explicit yes, when it does. */
      readonly concern?: PathConcern;
    }
  | { readonly ok: false; readonly message: string };

async function lstatOrUndefined(absolute: string): Promise<Stats | undefined> {
  try {
    return await lstat(absolute);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/**
 * Resolves a tool's path argument. `write` also refuses paths no tool may write and notes
 * the ones that need a person's yes, checked on both the real path and the entry (a link
 * named `.bashrc` is as protected as the file), through the one judgement of file changes
 * (`judgeFileChange`): `kind` says how the path changes (default `write`), and what is
 * there now counts too (changing an executable file needs a person).
 */
export async function resolveTarget(
  workspace: WorkspaceContext,
  input: string,
  mode: "read" | "write",
  kind: FileChangeKind = "write",
): Promise<Target> {
  const guard = workspace.pathGuard;
  let real: string;
  try {
    real = mode === "write" ? await guard.resolveForWrite(input) : await guard.resolve(input);
  } catch (error) {
    if (isXzatomaError(error)) return { ok: false, message: error.message };
    throw error;
  }
  const lexical = path.resolve(workspace.root, input);
  let entry = real;
  if (lexical !== workspace.root) {
    // The parent passed the guard as part of `input`, unless it changed since: then it is
    // refused like any path that leaves the workspace.
    try {
      entry = path.join(await guard.resolve(path.dirname(lexical)), path.basename(lexical));
    } catch (error) {
      if (isXzatomaError(error))
        return {
          ok: false,
          message: `'${input}' changed while it was being checked and now points outside the workspace.`,
        };
      throw error;
    }
  }
  const entryStats = await lstatOrUndefined(entry);
  const stats = entry === real ? entryStats : await lstatOrUndefined(real);
  let concern: PathConcern | undefined;
  if (mode === "write") {
    // A deletion removes the entry (a link), not what it leads to.
    const realMode = kind === "delete" && entry !== real ? undefined : stats?.mode;
    const concerns = [
      await guard.writeConcern(real, {
        kind,
        ...(realMode === undefined ? {} : { existingMode: realMode }),
      }),
      await guard.writeConcern(entry, {
        kind,
        ...(entryStats === undefined ? {} : { existingMode: entryStats.mode }),
      }),
    ];
    const never = concerns.find((found) => found?.protection === "never");
    if (never) {
      return {
        ok: false,
        message: `'${input}' is protected: ${never.reason}. No tool may change it.`,
      };
    }
    concern = concerns.find((found) => found !== undefined);
  }
  return { ok: true, real, entry, stats, entryStats, ...(concern ? { concern } : {}) };
}

/**
 * `assessment` raised to a `confirm` that only a person may give when the write touches a
 * path that makes other programs run code (`concern` from {@link resolveTarget} or a tree
 * check). A `block` stays a block.
 */
export function requirePersonFor<Facts>(
  assessment: ToolAssessment<Facts>,
  where: string,
  concern: PathConcern | undefined,
): ToolAssessment<Facts> {
  if (concern === undefined || assessment.verdict === "block") return assessment;
  return {
    ...assessment,
    verdict: "confirm",
    requiresPerson: true,
    reason: `${assessment.reason}; ${where} is protected: ${concern.reason}`,
  };
}

/** The failed result for a refused path. */
export function refusal(message: string): ToolResult {
  return toolFailure(message, { refused: true });
}

/** The `block` judgement for a refused path. */
export function blocked(message: string): ToolAssessment<never> {
  return { verdict: "block", reason: message };
}

/** A short name for what is at a path. */
export function describeKind(stats: Stats): string {
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  if (stats.isSymbolicLink()) return "symlink";
  return "special file";
}

/** `1 item`, `3 items`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** UTF-8 size of a string. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
