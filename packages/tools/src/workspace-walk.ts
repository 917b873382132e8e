import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  type Dirent,
} from "node:fs";
import path from "node:path";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { exemptDirectory, ignoreFile, isIgnored, type IgnoreFile } from "./gitignore.js";

/** One entry the walk found. Symlinks are reported, never followed. */
export interface WalkEntry {
  /** Relative to the workspace root, `/`-separated. */
  readonly relative: string;
  readonly kind: "file" | "directory" | "symlink";
}

/** Options of {@link walkWorkspace}. */
export interface WalkOptions {
  /** The real path of the workspace root. */
  readonly root: string;
  /** The real path of the directory to walk, inside the root. */
  readonly start: string;
  /** Skip what .gitignore files in the root and below ignore. */
  readonly gitignore: boolean;
  /**
   * When the start lies in an ignored directory (or is one), walk nothing: for walks that
   * stand for the whole root. By default a start named explicitly is walked.
   */
  readonly skipIgnoredStart?: boolean;
  /** Walk into and report names that start with `.`. `.git` is always skipped. */
  readonly hidden: boolean;
  /** Whether to walk into a directory (relative path); everything else is walked. */
  readonly descend?: (relative: string) => boolean;
  /** Stop after this many entries. */
  readonly maxEntries: number;
  readonly signal?: AbortSignal;
}

/** How a walk ended. */
export interface WalkSummary {
  readonly entries: number;
  /** False when the walk stopped at `maxEntries`. */
  readonly complete: boolean;
}

/** Time the walk may hold the event loop before it yields, in milliseconds. */
const SLICE_MS = 10;

/** A `.gitignore` larger than this is not read (git's own limit is 100 MB; real ones are small). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/**
 * The rules of `directory`'s `.gitignore`: a regular file only, as git reads it (git does not
 * follow a `.gitignore` that is a symlink), opened without following a link and without
 * waiting on a FIFO, so neither a file outside the workspace nor a pipe is ever read.
 */
function loadIgnoreFile(directory: string, base: string): IgnoreFile | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(
      path.join(directory, ".gitignore"),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile() || stats.size > MAX_IGNORE_FILE_BYTES) return undefined;
    return ignoreFile(base, readFileSync(descriptor, "utf8"));
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

interface PendingDirectory {
  readonly absolute: string;
  readonly relative: string;
  readonly ignoreFiles: readonly IgnoreFile[];
}

/**
 * Walks a directory of the workspace without following symlinks, pruning ignored and
 * hidden directories, and calls `onEntry` for every entry kept. Reads directories
 * synchronously (much faster than the thread pool here) in slices that yield to the event
 * loop, so a cancelled call stops promptly.
 */
export async function walkWorkspace(
  options: WalkOptions,
  onEntry: (entry: WalkEntry) => void,
): Promise<WalkSummary> {
  const startRelative = path.relative(options.root, options.start).split(path.sep).join("/");
  // The .gitignore files of the root and of every directory down to the start apply too.
  let inherited: IgnoreFile[] = [];
  if (options.gitignore) {
    const parts = startRelative === "" ? [] : startRelative.split("/");
    for (let depth = 0; depth <= parts.length; depth++) {
      const base = parts.slice(0, depth).join("/");
      if (
        options.skipIgnoredStart &&
        depth > 0 &&
        (isIgnored(inherited, base, true) ||
          (!options.hidden && base.split("/").at(-1)?.startsWith(".")))
      ) {
        return { entries: 0, complete: true };
      }
      if (depth > 0 && isIgnored(inherited, base, true)) {
        // Named on purpose: walk it, with the rules of the files above for what is inside.
        inherited = inherited.map((file) =>
          file.base === "" || base.startsWith(`${file.base}/`) ? exemptDirectory(file, base) : file,
        );
      }
      const file = loadIgnoreFile(path.join(options.root, base), base);
      if (file) inherited.push(file);
    }
  }
  const pending: PendingDirectory[] = [
    { absolute: options.start, relative: startRelative, ignoreFiles: inherited },
  ];
  let entries = 0;
  let sliceStart = performance.now();
  while (pending.length > 0) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      options.signal?.throwIfAborted();
      sliceStart = performance.now();
    }
    const directory = pending.pop() as PendingDirectory;
    let children: Dirent[];
    try {
      children = readdirSync(directory.absolute, { withFileTypes: true });
    } catch {
      continue; // unreadable or vanished: skip it, as git and ripgrep do
    }
    let ignoreFiles = directory.ignoreFiles;
    if (options.gitignore && directory.relative !== startRelative) {
      const own = children.some((child) => child.name === ".gitignore" && child.isFile())
        ? loadIgnoreFile(directory.absolute, directory.relative)
        : undefined;
      if (own) ignoreFiles = [...ignoreFiles, own];
    }
    for (const child of children) {
      const name = child.name;
      if (name.startsWith(".") && (!options.hidden || name === ".git")) continue;
      const kind = child.isDirectory()
        ? "directory"
        : child.isSymbolicLink()
          ? "symlink"
          : child.isFile()
            ? "file"
            : undefined; // sockets, FIFOs and devices are never listed or read
      if (kind === undefined) continue;
      const relative = directory.relative === "" ? name : `${directory.relative}/${name}`;
      if (ignoreFiles.length > 0 && isIgnored(ignoreFiles, relative, kind === "directory")) {
        continue;
      }
      if (entries >= options.maxEntries) return { entries, complete: false };
      entries++;
      onEntry({ relative, kind });
      if (kind === "directory" && (options.descend?.(relative) ?? true)) {
        // A real path joined with a name read from it: nothing to normalise.
        const absolute = directory.absolute.endsWith("/")
          ? directory.absolute + name
          : `${directory.absolute}/${name}`;
        pending.push({ absolute, relative, ignoreFiles });
      }
    }
  }
  return { entries, complete: true };
}
