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

/** The upper directory holds more than a command may hand back. */
export class ChangesTooLargeError extends Error {
  override readonly name = "ChangesTooLargeError";
}

/** Entries of the upper directory read at most, whatever their size. */
const MAX_ENTRIES = 1_000_000;

/**
 * Reads the upper directory after the command ended, without following any link. Nothing
 * of the command runs any more (see `waitForSandboxExit`), so the tree holds still. Stops
 * with {@link ChangesTooLargeError} once its files and links hold more than `maxBytes`,
 * or it has more than a million entries.
 */
export async function readUpperTree(
  upper: string,
  maxBytes: number = Number.MAX_SAFE_INTEGER,
): Promise<UpperEntry> {
  let bytes = 0;
  let entries = 0;
  const read = async (relative: string, upperPath: string): Promise<UpperEntry> => {
    const stats = await lstat(upperPath);
    if (++entries > MAX_ENTRIES) {
      throw new ChangesTooLargeError(`more than ${MAX_ENTRIES} files and directories`);
    }
    if (stats.isFile() || stats.isSymbolicLink()) bytes += stats.size;
    if (bytes > maxBytes) throw new ChangesTooLargeError(`more than ${formatBytes(maxBytes)}`);
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

/** A byte count as people read it: `512 MiB`, `8 GiB`, `1.5 KiB`, `12 bytes`. */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${shown} ${units[unit] as string}`;
}
