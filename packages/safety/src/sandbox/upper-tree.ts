import type { Stats } from "node:fs";
import { chmod, lstat, readdir } from "node:fs/promises";
import path from "node:path";

/** One entry of the overlay's upper directory: what the command created or changed. */
export interface UpperEntry {
  /** Workspace-relative, `/`-separated; "" for the workspace itself. */
  readonly relative: string;
  readonly upperPath: string;
  readonly stats: Stats;
  /** Sorted by name; present for directories. */
  readonly children?: readonly UpperEntry[];
}

/** A deletion: the overlay records it as a character device with device number 0/0. */
export function isWhiteout(stats: Stats): boolean {
  return stats.isCharacterDevice() && stats.rdev === 0;
}

export function joinRelative(parent: string, name: string): string {
  return parent === "" ? name : `${parent}/${name}`;
}

async function readNames(directory: string, stats: Stats): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    // A directory the command made unreadable; the run's user owns it when not root.
    if ((error as NodeJS.ErrnoException).code !== "EACCES") throw error;
    await chmod(directory, (stats.mode & 0o7777) | 0o700);
    return readdir(directory);
  }
}

/**
 * Reads the upper directory after the command ended, without following any link. Nothing
 * of the command runs any more (see `waitForSandboxExit`), so the tree holds still.
 */
export async function readUpperTree(upper: string): Promise<UpperEntry> {
  const read = async (relative: string, upperPath: string): Promise<UpperEntry> => {
    const stats = await lstat(upperPath);
    if (!stats.isDirectory()) return { relative, upperPath, stats };
    const names = (await readNames(upperPath, stats)).sort();
    const children: UpperEntry[] = [];
    for (const name of names) {
      children.push(await read(joinRelative(relative, name), path.join(upperPath, name)));
    }
    return { relative, upperPath, stats, children };
  };
  return read("", upper);
}

/** Every entry of the tree below `entry`, depth first, parents before children. */
export function* descendants(entry: UpperEntry): Generator<UpperEntry> {
  for (const child of entry.children ?? []) {
    yield child;
    yield* descendants(child);
  }
}
