import { constants } from "node:fs";
import { mkdir, open, readlink, symlink } from "node:fs/promises";
import path from "node:path";
import { resolveLinkTarget } from "@xzatoma/safety";
import { makeDirectories, withCheckedParent } from "./anchored-path.js";
import type { TreeEntry } from "./tree-listing.js";
import type { WorkspaceContext } from "./workspace-context.js";

/** What a tree copy did. */
export interface CopyReport {
  /** Entries created: files, directories and symlinks. */
  readonly items: number;
  readonly bytes: number;
  /** Symlinks not copied because they point (or would point) outside the workspace or nowhere. */
  readonly skippedLinks: readonly string[];
  /** Sockets, FIFOs and devices, never copied. */
  readonly skippedSpecial: readonly string[];
}

const COPY_BUFFER_BYTES = 1024 * 1024;

/** The permission bits a copied file keeps: read and write, never execute, set-id or sticky. */
export const COPIED_MODE_BITS = 0o666;

function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

async function copyFileContent(
  workspace: WorkspaceContext,
  from: string,
  to: string,
): Promise<number> {
  // The guard re-checks the descriptor actually opened: a file swapped for a link is refused.
  const source = await workspace.pathGuard.open(from, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await source.handle.stat();
    if (!stats.isFile())
      throw new Error(`'${workspace.pathGuard.relative(from)}' is no longer a regular file`);
    // O_EXCL | O_NOFOLLOW: the destination is new, never a planted link. Without execute
    // bits: a copy never makes an executable file (see judgeFileChange).
    const target = await withCheckedParent(workspace, to, (anchored) =>
      open(
        anchored,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        stats.mode & COPIED_MODE_BITS,
      ),
    );
    try {
      const buffer = Buffer.allocUnsafe(Math.min(COPY_BUFFER_BYTES, Math.max(stats.size, 1)));
      let total = 0;
      for (;;) {
        const { bytesRead } = await source.handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) return total;
        await target.write(buffer, 0, bytesRead);
        total += bytesRead;
      }
    } finally {
      await target.close();
    }
  } finally {
    await source.handle.close();
  }
}

/**
 * Copies a listed tree from `source` to `destination` (both real paths in the workspace;
 * the destination must not exist). Never follows a symlink: links are recreated with the
 * same text when they resolve inside the workspace both where they are and where they
 * land, and skipped otherwise, so no content from outside is ever copied in.
 */
export async function copyTree(
  workspace: WorkspaceContext,
  source: string,
  destination: string,
  entries: readonly TreeEntry[],
): Promise<CopyReport> {
  let items = 0;
  let bytes = 0;
  const skippedLinks: string[] = [];
  const skippedSpecial: string[] = [];
  await makeDirectories(workspace, path.dirname(destination));
  for (const entry of entries) {
    const from = entry.relative === "" ? source : path.join(source, entry.relative);
    const to = entry.relative === "" ? destination : path.join(destination, entry.relative);
    const name = workspace.pathGuard.relative(from);
    // Each entry is made through its directory as the guard opened it (anchored-path.ts).
    if (entry.kind === "directory") {
      await withCheckedParent(workspace, to, (anchored) => mkdir(anchored));
    } else if (entry.kind === "file") {
      bytes += await copyFileContent(workspace, from, to);
    } else if (entry.kind === "symlink") {
      const text = await readlink(from);
      // Resolved as the kernel will, from where the link lands (links and `..` included),
      // in the tree as it will stand: a link of the copy not made yet is looked up in the
      // source, so `A -> B/../x` is judged through `B -> ..` even when `A` comes first.
      const landing = resolveLinkTarget(path.dirname(to), text, { from: source, to: destination });
      let pointsInside: boolean;
      try {
        await workspace.pathGuard.resolve(from);
        pointsInside = landing !== undefined && inside(workspace.root, landing);
      } catch {
        pointsInside = false;
      }
      if (!pointsInside) {
        skippedLinks.push(name);
        continue;
      }
      await withCheckedParent(workspace, to, (anchored) => symlink(text, anchored));
    } else {
      skippedSpecial.push(name);
      continue;
    }
    items++;
  }
  return { items, bytes, skippedLinks, skippedSpecial };
}

/** Notes about what a copy left out, one sentence each; "" when nothing was. */
export function skippedNotes(report: CopyReport): string {
  const notes: string[] = [];
  if (report.skippedLinks.length > 0) {
    notes.push(
      `Skipped ${report.skippedLinks.length} symlink(s) pointing outside the workspace or nowhere: ${report.skippedLinks.join(", ")}.`,
    );
  }
  if (report.skippedSpecial.length > 0) {
    notes.push(
      `Skipped ${report.skippedSpecial.length} special file(s): ${report.skippedSpecial.join(", ")}.`,
    );
  }
  return notes.length > 0 ? `\n${notes.join("\n")}` : "";
}
