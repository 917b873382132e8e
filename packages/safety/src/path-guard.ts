import { constants, realpathSync } from "node:fs";
import { lstat, open, readlink, realpath, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { PathOutsideWorkspaceError, PathProtectedError } from "./path-guard-error.js";
import { judgeFileChange, type FileChangeKind } from "./path-rules/file-change.js";
import type { PathConcern } from "./path-rules/path-rules.js";
import { isSecretPath } from "./path-rules/secret-paths.js";
import { protectionOf } from "./protected-paths.js";

/** Options of {@link createPathGuard}. */
export interface PathGuardOptions {
  /** The workspace root. It must exist; symlinks in it are resolved once, here. */
  readonly root: string;
  /**
   * More paths that stay unwritable (files, or directories with everything below): the
   * agent's own config, audit log and history database. Resolved once, here.
   */
  readonly protectedPaths?: readonly string[];
}

/** How a change touches a path, for {@link PathGuard.writeConcern}. */
export interface WriteChange {
  /** Default `write`. */
  readonly kind?: FileChangeKind;
  /** `st_mode` of what is there now. */
  readonly existingMode?: number;
  /** `st_mode` the change gives it. */
  readonly newMode?: number;
  /** Directory listings shared by a batch of paths judged together (a whole tree). */
  readonly listings?: Map<string, Set<string>>;
}

/** A file opened through the guard, with the real path of what was actually opened. */
export interface GuardedFile {
  readonly handle: FileHandle;
  readonly path: string;
}

/** Resolves path arguments of tools against one workspace root. */
export interface PathGuard {
  /** The real (symlink-free) absolute path of the workspace root. */
  readonly root: string;
  /**
   * Resolves `input` (relative to the root, or absolute) to a real absolute path inside
   * the root. For a path that does not exist yet, its deepest existing ancestor is
   * resolved and the rest appended. Throws {@link PathOutsideWorkspaceError} when the
   * result leaves the root by `..`, an absolute path or a symlink, names a system
   * pseudo-filesystem, or contains a NUL byte.
   */
  resolve(input: string): Promise<string>;
  /**
   * Like {@link PathGuard.resolve}, and also refuses paths no tool may ever write with
   * {@link PathProtectedError}: version-control internals at any depth (and directories
   * shaped like a git repository) and the configured `protectedPaths`. Paths that need a
   * person's yes (see {@link PathGuard.writeConcern}) resolve normally: the tool's
   * judgement asks for that yes before it runs.
   */
  resolveForWrite(input: string): Promise<string>;
  /** Whether writing the real path `absolute` is protected at any level (names only). */
  isProtected(absolute: string): boolean;
  /**
   * Why changing the real path `absolute` is protected, or undefined: `never` (no tool
   * writes it) or `person` (only with a person's explicit yes, in every mode). The one
   * judgement of every file change (`judgeFileChange`), with this guard's protected
   * paths: names, hidden paths, paths git resolves from its configuration, a
   * bare-repository shape, and an executable file (`existingMode`, the `st_mode` of what
   * is there now).
   */
  writeConcern(absolute: string, change?: WriteChange): Promise<PathConcern | undefined>;
  /**
   * Why reading the real path `absolute` needs a person's yes, or undefined: its name
   * looks secret, or it is a regular file with more than one hard link (the other names
   * may be outside the workspace, where the guard cannot see them).
   */
  readConcern(absolute: string): Promise<string | undefined>;
  /**
   * Opens a file through the guard: resolves `input`, opens it without following a final
   * symlink, then checks the path of the descriptor actually opened (via `/proc/self/fd`
   * where the platform has it), so a path swapped between the check and the open is
   * refused. `flags` are `fs.open` flags; writes also get the protected-path check.
   */
  open(input: string, flags: number, mode?: number): Promise<GuardedFile>;
  /** The path of `absolute` relative to the root, with `/` separators (`.` for the root). */
  relative(absolute: string): string;
}

const SYSTEM_ROOTS = ["/proc", "/dev", "/sys"];

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function isSystemPath(candidate: string): boolean {
  return SYSTEM_ROOTS.some((system) => isInside(system, candidate));
}

async function exists(candidate: string): Promise<boolean> {
  try {
    await lstat(candidate);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves the real path of `target`; when it does not exist, resolves its deepest
 * existing ancestor and appends the missing segments.
 */
async function realpathOfDeepestAncestor(target: string): Promise<string> {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    if (await exists(current)) {
      // A dangling symlink exists for lstat but not for realpath: refuse to guess where it points.
      const real = await realpath(current);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    }
    const parent = path.dirname(current);
    if (parent === current) return target;
    missing.push(path.basename(current));
    current = parent;
  }
}

/**
 * Creates a path guard for one workspace root.
 *
 * @example
 * const guard = createPathGuard({ root: "/home/me/project" });
 * await guard.resolve("src/index.ts"); // "/home/me/project/src/index.ts"
 * await guard.resolve("../secrets");   // throws PathOutsideWorkspaceError
 */
export function createPathGuard(options: PathGuardOptions): PathGuard {
  const root = realpathSync(path.resolve(options.root));
  const extraProtected = (options.protectedPaths ?? []).map((entry) => {
    const absolute = path.resolve(root, entry);
    try {
      return realpathSync(absolute);
    } catch {
      return absolute;
    }
  });

  async function resolve(input: string): Promise<string> {
    if (input.includes("\0")) {
      throw new PathOutsideWorkspaceError(
        "The path contains a NUL byte. Use a plain relative path inside the workspace.",
        input,
        "invalid-path",
      );
    }
    if (input.trim() === "") {
      throw new PathOutsideWorkspaceError(
        "The path is empty. Use '.' for the workspace root or a relative path inside it.",
        input,
        "invalid-path",
      );
    }
    const lexical = path.resolve(root, input);
    if (!isInside(root, lexical)) {
      throw new PathOutsideWorkspaceError(
        `'${input}' is outside the workspace. Use a path relative to the workspace root.`,
        input,
        "outside-workspace",
      );
    }
    let real: string;
    try {
      real = await realpathOfDeepestAncestor(lexical);
    } catch {
      throw new PathOutsideWorkspaceError(
        `'${input}' is a symlink whose target cannot be resolved. Use a path to a real file inside the workspace.`,
        input,
        "symlink-escape",
      );
    }
    if (isSystemPath(real) && !isSystemPath(root)) {
      throw new PathOutsideWorkspaceError(
        `'${input}' points into a system pseudo-filesystem, which tools may not use.`,
        input,
        "system-path",
      );
    }
    if (!isInside(root, real)) {
      throw new PathOutsideWorkspaceError(
        `'${input}' resolves through a symlink to a place outside the workspace. Use a path inside the workspace.`,
        input,
        "symlink-escape",
      );
    }
    return real;
  }

  function relative(absolute: string): string {
    const relativePath = path.relative(root, absolute);
    return relativePath === "" ? "." : relativePath.split(path.sep).join("/");
  }

  const isProtected = (absolute: string) =>
    protectionOf(root, absolute, extraProtected) !== undefined;

  async function writeConcern(
    absolute: string,
    change: WriteChange = {},
  ): Promise<PathConcern | undefined> {
    if (!isInside(root, absolute)) return protectionOf(root, absolute, extraProtected);
    return judgeFileChange(root, path.relative(root, absolute), change.kind ?? "write", {
      protectedPaths: extraProtected,
      ...(change.existingMode === undefined ? {} : { existingMode: change.existingMode }),
      ...(change.newMode === undefined ? {} : { newMode: change.newMode }),
      ...(change.listings === undefined ? {} : { listings: change.listings }),
    });
  }

  async function readConcern(absolute: string): Promise<string | undefined> {
    if (isSecretPath(relative(absolute))) {
      return `${relative(absolute)} looks like it holds secrets`;
    }
    try {
      const stats = await lstat(absolute);
      if (stats.isFile() && stats.nlink > 1) {
        return `${relative(absolute)} has ${String(stats.nlink)} hard links, and another name for it may be outside the workspace`;
      }
    } catch {
      // Nothing there: the read fails on its own.
    }
    return undefined;
  }

  async function resolveForWrite(input: string): Promise<string> {
    const real = await resolve(input);
    const concern = await writeConcern(real);
    if (concern?.protection === "never") {
      throw new PathProtectedError(
        `'${input}' is protected: ${concern.reason}. No tool may change it.`,
        input,
      );
    }
    return real;
  }

  async function openChecked(input: string, flags: number, mode?: number): Promise<GuardedFile> {
    const writing =
      (flags & (constants.O_WRONLY | constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC)) !==
      0;
    const resolved = writing ? await resolveForWrite(input) : await resolve(input);
    const handle = await open(resolved, flags | constants.O_NOFOLLOW, mode);
    let opened: string;
    try {
      opened = await readlink(`/proc/self/fd/${handle.fd}`);
    } catch {
      // No /proc (not Linux): O_NOFOLLOW on the resolved real path is the best the platform offers.
      opened = resolved;
    }
    if (
      !isInside(root, opened) ||
      (writing && protectionOf(root, opened, extraProtected)?.protection === "never")
    ) {
      await handle.close();
      throw new PathOutsideWorkspaceError(
        `'${input}' changed while it was being opened and now points outside the workspace; it was not used.`,
        input,
        "symlink-escape",
      );
    }
    return { handle, path: opened };
  }

  return {
    root,
    resolve,
    resolveForWrite,
    isProtected,
    writeConcern,
    readConcern,
    open: openChecked,
    relative,
  };
}
