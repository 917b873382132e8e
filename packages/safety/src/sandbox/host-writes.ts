import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { constants } from "node:fs";
import {
  chmod,
  chown,
  copyFile,
  lstat,
  mkdir,
  rename,
  rmdir,
  symlink,
  unlink,
  utimes,
} from "node:fs/promises";
import path from "node:path";

// Host-side writes of XZatoma's sandbox. Every path handed in here was reached from the
// workspace root through directories checked with lstat, and nothing of the sandboxed
// command runs any more, so no link can appear on the way. A new entry is made under a
// temporary name beside its target and renamed into place, so the target never holds a
// half-written file and a link there is replaced, not followed.

/** Mode bits a change may carry: never set-user-ID or set-group-ID. */
const MODE_BITS = 0o1777;

export async function lstatOrUndefined(file: string): Promise<Stats | undefined> {
  try {
    return await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function temporarySibling(target: string): string {
  return path.join(path.dirname(target), `.xzatoma-${randomBytes(6).toString("hex")}.tmp`);
}

/** Ownership follows the upper entry (the command's user, or the owner a copy-up kept) when root. */
async function adoptOwner(file: string, stats: Stats, privileged: boolean): Promise<void> {
  if (privileged && (stats.uid !== 0 || stats.gid !== 0)) {
    await chown(file, stats.uid, stats.gid);
  }
}

async function copyContent(source: string, target: string, stats: Stats): Promise<void> {
  // Where the filesystem can, the copy shares blocks (a reflink); elsewhere it copies.
  const flags = constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE;
  try {
    await copyFile(source, target, flags);
  } catch (error) {
    // A file the command made unreadable; the run's user owns it when not root.
    if ((error as NodeJS.ErrnoException).code !== "EACCES") throw error;
    await chmod(source, (stats.mode & 0o7777) | 0o400);
    await copyFile(source, target, flags);
  }
}

/**
 * Puts a copy of the regular file `source` (from the upper directory) at `target`, with its
 * mode (minus set-ID bits) and times. The copy is a new inode: no hard link into the upper
 * directory, no overlay bookkeeping attributes.
 */
export async function placeFile(
  source: string,
  stats: Stats,
  target: string,
  privileged: boolean,
): Promise<void> {
  const temporary = temporarySibling(target);
  try {
    await copyContent(source, temporary, stats);
    await adoptOwner(temporary, stats, privileged);
    await chmod(temporary, stats.mode & MODE_BITS);
    await utimes(temporary, stats.atime, stats.mtime);
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Puts a symlink with `text` at `target`, replacing a file or link there. */
export async function placeSymlink(text: string, target: string): Promise<void> {
  const temporary = temporarySibling(target);
  try {
    await symlink(text, temporary);
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Makes a directory, owner-writable until {@link finishDirectory} gives it its mode. */
export async function makeDirectory(
  target: string,
  stats: Stats,
  privileged: boolean,
): Promise<void> {
  await mkdir(target, { mode: 0o700 });
  await adoptOwner(target, stats, privileged);
}

/** Gives a directory the mode it has in the upper directory, after its content is in. */
export async function finishDirectory(target: string, mode: number): Promise<void> {
  await chmod(target, mode & MODE_BITS);
}

/** Removes one entry that is not a directory, or an empty directory, without following links. */
export async function removeEntry(target: string, isDirectory: boolean): Promise<void> {
  if (isDirectory) await rmdir(target);
  else await unlink(target);
}
