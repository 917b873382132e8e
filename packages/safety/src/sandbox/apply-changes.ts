import { readdir, readlink } from "node:fs/promises";
import path from "node:path";
import { resolveLinkTarget } from "../path-rules/link-target.js";
import {
  finishDirectory,
  lstatOrUndefined,
  makeDirectory,
  placeFile,
  placeSymlink,
  removeEntry,
} from "./host-writes.js";
import { descendants, isWhiteout, joinRelative, type UpperEntry } from "./upper-tree.js";

/** What a command did to one path, as the judge sees it. */
export type SandboxChangeKind = "write" | "delete" | "symlink" | "mkdir";

/**
 * Decides whether one change a sandboxed command made may reach the workspace: returns why
 * it must be discarded, or undefined to apply it. `relativePath` is workspace-relative with
 * `/` separators. A symlink is also judged as a `write` of the path it leads to.
 */
export type SandboxJudge = (
  relativePath: string,
  change: SandboxChangeKind,
  context: { readonly writableGit: boolean },
) => string | undefined;

/** What became of a command's changes. */
export interface SandboxOutcome {
  /** Workspace-relative paths that were written, made, linked or deleted. */
  readonly applied: string[];
  /** Changes that did not reach the workspace, with the reason. */
  readonly discarded: { path: string; reason: string }[];
  /**
   * Limits of the whole sandbox the command ran into, one sentence each (its memory, when
   * the kernel killed processes for it). Absent when it ran into none. A change set past
   * its size limit is reported in `discarded` instead.
   */
  readonly limitsReached?: string[];
}

/** Inputs of {@link applyChanges}. */
export interface ApplyChangesOptions {
  readonly workspace: string;
  readonly upper: UpperEntry;
  readonly judge: SandboxJudge;
  readonly writableGit: boolean;
  /** XZatoma runs as root: entries keep the owner they have in the upper directory. */
  readonly privileged: boolean;
  /**
   * Of the given directories (present in the upper directory and in the workspace), those
   * whose workspace content the command's view no longer showed: it deleted and remade them.
   * `probe` names one workspace entry of each that the upper directory does not mention.
   */
  readonly findReplaced: (
    candidates: readonly { relative: string; probe: string }[],
  ) => Promise<{ replaced: ReadonlySet<string>; failed?: string }>;
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}

function isInside(workspace: string, candidate: string): boolean {
  const relative = path.relative(workspace, candidate);
  return (
    relative === "" ||
    (relative !== ".." && !relative.startsWith("../") && !path.isAbsolute(relative))
  );
}

/**
 * Applies the upper directory of a finished command to the workspace: parents before
 * children, a removal before whatever replaces it, links last (so they are checked against
 * the tree they will live in), and every change through `judge`. The workspace is never
 * entered through a link.
 */
export async function applyChanges(options: ApplyChangesOptions): Promise<SandboxOutcome> {
  const { workspace, writableGit, privileged } = options;
  const applied: string[] = [];
  const discarded: { path: string; reason: string }[] = [];
  const links: UpperEntry[] = [];
  const hostPath = (relative: string) => path.join(workspace, relative);
  const judge = (relative: string, change: SandboxChangeKind): string | undefined => {
    try {
      return options.judge(relative, change, { writableGit });
    } catch (error) {
      return `${relative}: the sandbox's judge failed (${reasonOf(error)})`;
    }
  };
  const discard = (relative: string, reason: string): void => {
    discarded.push({ path: relative, reason });
  };
  const discardTree = (entry: UpperEntry, reason: string) => {
    discard(entry.relative, reason);
    for (const inner of descendants(entry)) {
      if (!isWhiteout(inner.stats)) discard(inner.relative, reason);
    }
  };

  const replaced = await findReplacedDirectories(options, discard);

  /** Removes what the workspace has at `relative`, all of it or, where refused, nothing above. */
  const removeHost = async (relative: string): Promise<boolean> => {
    const target = hostPath(relative);
    const stats = await lstatOrUndefined(target);
    if (stats === undefined) return true;
    const refusal = judge(relative, "delete");
    if (refusal !== undefined) {
      discard(relative, refusal);
      return false;
    }
    try {
      if (stats.isDirectory()) {
        let complete = true;
        for (const name of (await readdir(target)).sort()) {
          complete = (await removeHost(joinRelative(relative, name))) && complete;
        }
        if (!complete) return false;
      }
      await removeEntry(target, stats.isDirectory());
      applied.push(relative);
      return true;
    } catch (error) {
      discard(relative, `${relative} could not be removed (${reasonOf(error)})`);
      return false;
    }
  };

  const applyDirectory = async (entry: UpperEntry, replacedHere: boolean): Promise<void> => {
    const children = entry.children ?? [];
    if (replacedHere) {
      const kept = new Set(children.map((child) => path.posix.basename(child.relative)));
      for (const name of (await readdir(hostPath(entry.relative))).sort()) {
        if (!kept.has(name)) await removeHost(joinRelative(entry.relative, name));
      }
    }
    for (const child of children) await applyEntry(child, replacedHere);
  };

  const applyEntry = async (entry: UpperEntry, parentReplaced: boolean): Promise<void> => {
    const { relative, stats } = entry;
    const target = hostPath(relative);
    try {
      const host = await lstatOrUndefined(target);
      if (isWhiteout(stats)) {
        if (host !== undefined) await removeHost(relative);
      } else if (stats.isDirectory()) {
        if (host?.isDirectory()) {
          await applyDirectory(entry, parentReplaced || replaced.has(relative));
          if ((stats.mode & 0o1777) !== (host.mode & 0o1777)) {
            const refusal = judge(relative, "mkdir");
            if (refusal !== undefined) discard(relative, refusal);
            else {
              await finishDirectory(target, (stats.mode & 0o1777) | (host.mode & 0o6000));
              applied.push(relative);
            }
          }
          return;
        }
        const refusal = judge(relative, "mkdir");
        if (refusal !== undefined) return discardTree(entry, refusal);
        if (host !== undefined && !(await removeHost(relative))) {
          return discardTree(entry, `${relative} could not replace what the workspace has there`);
        }
        await makeDirectory(target, stats, privileged);
        applied.push(relative);
        await applyDirectory(entry, false);
        await finishDirectory(target, stats.mode);
      } else if (stats.isFile()) {
        const refusal = judge(relative, "write");
        if (refusal !== undefined) return discard(relative, refusal);
        if (host?.isDirectory() && !(await removeHost(relative))) {
          return discard(relative, `${relative} could not replace the directory there`);
        }
        await placeFile(entry.upperPath, stats, target, privileged);
        applied.push(relative);
      } else if (stats.isSymbolicLink()) {
        links.push(entry);
      } else {
        discard(
          relative,
          `${relative} is a special file (fifo, socket or device); only files, directories and links reach the workspace`,
        );
      }
    } catch (error) {
      discardTree(entry, `${relative} could not be applied (${reasonOf(error)})`);
    }
  };

  await applyDirectory(options.upper, false);
  await applyLinks(links, { workspace, judge, applied, discard, removeHost });
  return { applied, discarded };
}

async function findReplacedDirectories(
  options: ApplyChangesOptions,
  discard: (relative: string, reason: string) => void,
): Promise<ReadonlySet<string>> {
  const candidates: { relative: string; probe: string }[] = [];
  const visit = async (entry: UpperEntry): Promise<void> => {
    for (const child of entry.children ?? []) {
      const host = await lstatOrUndefined(path.join(options.workspace, child.relative));
      // Only a directory on both sides can be merged or replaced; elsewhere there is
      // nothing below it in the workspace to keep or drop.
      if (!child.children || !host?.isDirectory()) continue;
      const mentioned = new Set(child.children.map((inner) => path.posix.basename(inner.relative)));
      const names = await readdir(path.join(options.workspace, child.relative));
      const unmentioned = names.find((name) => !mentioned.has(name));
      if (unmentioned !== undefined) {
        candidates.push({
          relative: child.relative,
          probe: joinRelative(child.relative, unmentioned),
        });
      }
      await visit(child);
    }
  };
  await visit(options.upper);
  if (candidates.length === 0) return new Set();
  const { replaced, failed } = await options.findReplaced(candidates);
  if (failed !== undefined) {
    for (const candidate of candidates) {
      discard(
        candidate.relative,
        `could not tell whether the command replaced ${candidate.relative} (${failed}); entries it removed from there are kept`,
      );
    }
  }
  return replaced;
}

interface LinkContext {
  readonly workspace: string;
  readonly judge: (relative: string, change: SandboxChangeKind) => string | undefined;
  readonly applied: string[];
  readonly discard: (relative: string, reason: string) => void;
  readonly removeHost: (relative: string) => Promise<boolean>;
}

/** Why the link `text` at `target` must not stay, judged where it now lives. */
function linkRefusal(context: LinkContext, relative: string, target: string, text: string) {
  const resolved = resolveLinkTarget(path.dirname(target), text);
  if (resolved === undefined || !isInside(context.workspace, resolved)) {
    return `${relative} is a link to ${text}, which leads out of the workspace`;
  }
  const pointed = path.relative(context.workspace, resolved).split(path.sep).join("/");
  if (pointed === "") return undefined;
  const refusal = context.judge(pointed, "write");
  return refusal === undefined
    ? undefined
    : `${relative} is a link to a protected path: ${refusal}`;
}

async function applyLinks(links: readonly UpperEntry[], context: LinkContext): Promise<void> {
  const placed: { relative: string; target: string; text: string }[] = [];
  for (const entry of links) {
    const target = path.join(context.workspace, entry.relative);
    try {
      const text = await readlink(entry.upperPath);
      const refusal =
        context.judge(entry.relative, "symlink") ??
        linkRefusal(context, entry.relative, target, text);
      if (refusal !== undefined) {
        context.discard(entry.relative, refusal);
        continue;
      }
      const host = await lstatOrUndefined(target);
      if (host?.isDirectory() && !(await context.removeHost(entry.relative))) {
        context.discard(entry.relative, `${entry.relative} could not replace the directory there`);
        continue;
      }
      await placeSymlink(text, target);
      context.applied.push(entry.relative);
      placed.push({ relative: entry.relative, target, text });
    } catch (error) {
      context.discard(
        entry.relative,
        `${entry.relative} could not be applied (${reasonOf(error)})`,
      );
    }
  }
  // A link checked early may lead elsewhere once later links exist; look again until
  // nothing changes (each round removes at least one link, so this ends).
  for (let round = 0; round <= placed.length; round++) {
    let removed = false;
    for (const link of [...placed]) {
      const refusal = linkRefusal(context, link.relative, link.target, link.text);
      if (refusal === undefined) continue;
      await removeEntry(link.target, false).catch(() => undefined);
      placed.splice(placed.indexOf(link), 1);
      context.applied.splice(context.applied.indexOf(link.relative), 1);
      context.discard(link.relative, refusal);
      removed = true;
    }
    if (!removed) break;
  }
}
