import type { Dirent } from "node:fs";
import { accessSync, constants, lstatSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { isSecretPath } from "../path-rules/secret-paths.js";
import { SandboxRefusedError } from "./sandbox-refused-error.js";

/** Secret-looking entries of a workspace, as absolute paths, split by the mask each needs. */
export interface WorkspaceSecrets {
  readonly files: readonly string[];
  readonly directories: readonly string[];
  /** Secret-looking links: not mounted over (their targets are), but never changed. */
  readonly links: readonly string[];
}

/** How far the search for secret-looking files may go before the sandbox refuses. */
export interface SecretScanBounds {
  /** Directory entries looked at (`node_modules` and `.git` internals not counted). */
  readonly maxEntries: number;
  /** Wall-clock time of one search, in milliseconds. */
  readonly timeoutMs: number;
  /** Secret-looking files and directories that can be masked (each is one mount). */
  readonly maxMasks: number;
}

/**
 * The bounds unless the sandbox's options say otherwise: 100,000 entries, 5 s, 1,000 masks.
 * A workspace past them gets no sandbox at all, never a partial mask.
 */
export const DEFAULT_SECRET_SCAN: SecretScanBounds = Object.freeze({
  maxEntries: 100_000,
  timeoutMs: 5_000,
  maxMasks: 1_000,
});

/**
 * Directories not descended into. `node_modules` holds third-party packages (their test
 * keys are not the user's secrets) and often tens of thousands of files; the user's own
 * secrets sit in the project, not there. `.git` is looked at separately (only its config).
 */
const NOT_DESCENDED = new Set(["node_modules"]);
const GIT_CONFIG_NAMES = ["config", "config.worktree"];
/** Nesting of `.git/modules/NAME/...` (a submodule's name may hold slashes) looked at. */
const MAX_GIT_DEPTH = 16;
/** Directories read between two yields to the event loop. */
const DIRECTORIES_PER_SLICE = 256;

/**
 * Git's configuration below a git directory (`.git`, a bare `name.git`) carries clone and
 * CI credentials (`http.*.extraheader`, `https://user:token@...` remotes). The classifier
 * in path-rules/secret-paths.ts holds the same rule; the sandbox needs it apart, to show
 * these files to a command a person approved to write `.git`.
 */
function isGitConfig(relative: string): boolean {
  const components = relative.toLowerCase().split("/");
  const name = components.pop();
  if (name === undefined || !GIT_CONFIG_NAMES.includes(name)) return false;
  return components.some((directory) => directory === ".git" || directory.endsWith(".git"));
}

function isWithin(parent: string, candidate: string): boolean {
  const relative = path.relative(parent, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/**
 * Lists what the sandbox must mask in `workspace` (a real path): every file and directory
 * the one classifier of secret-looking paths flags (`.env*` but not `.env.example`, keys,
 * credential files, `.ssh/`, `.aws/`, ...), and git's configuration in every git directory,
 * `.git/modules/*` and `.git/worktrees/*` included (unless `showGitConfig`: git needs its
 * configuration to write a repository), whatever `.gitignore` says. A secret-
 * looking link is masked where it leads, when that is inside the workspace or another of
 * `visibleRoots`; links are never followed otherwise.
 *
 * Fails closed: throws {@link SandboxRefusedError} when the search passes a bound, when a
 * directory the command could enter cannot be read, or when more masks would be needed
 * than `bounds.maxMasks`.
 */
export async function findWorkspaceSecrets(
  workspace: string,
  options: {
    readonly bounds?: SecretScanBounds;
    /** Paths outside the workspace that the command sees (extra read-only paths). */
    readonly visibleRoots?: readonly string[];
    /** Leave git's configuration visible (a person approved a command that writes `.git`). */
    readonly showGitConfig?: boolean;
  } = {},
): Promise<WorkspaceSecrets> {
  const bounds = options.bounds ?? DEFAULT_SECRET_SCAN;
  const visibleRoots = options.visibleRoots ?? [];
  const isSecret = (relative: string) =>
    isGitConfig(relative) ? options.showGitConfig !== true : isSecretPath(relative);
  const started = performance.now();
  const files = new Set<string>();
  const directories = new Set<string>();
  const links = new Set<string>();
  let entries = 0;
  let directoriesRead = 0;
  const refuse = (why: string): never => {
    throw new SandboxRefusedError(
      `The sandbox refused to run the command: ${why}. The sandbox masks every secret-looking file of the workspace and runs nothing when it cannot mask them all.`,
      workspace,
      "secret-scan",
    );
  };
  const checkBounds = () => {
    if (entries > bounds.maxEntries) {
      refuse(
        `the workspace has more than ${bounds.maxEntries} entries outside node_modules and .git, too many to search for secret-looking files (raise the sandbox's secret scan limit, or work in a smaller directory)`,
      );
    }
    if (performance.now() - started > bounds.timeoutMs) {
      refuse(
        `searching the workspace for secret-looking files took longer than ${bounds.timeoutMs} ms`,
      );
    }
  };
  const readEntries = (absolute: string): Dirent[] | undefined => {
    try {
      return readdirSync(absolute, { withFileTypes: true });
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      if (code === "EACCES") {
        // A directory nobody here may enter hides its content from the command too.
        try {
          accessSync(absolute, constants.X_OK);
        } catch {
          return undefined;
        }
      }
      return refuse(`${absolute} could not be searched for secret-looking files (${code})`);
    }
  };
  const maskLinkTarget = (absolute: string) => {
    let target: string;
    try {
      target = realpathSync(absolute);
    } catch {
      return; // dangling: nothing to read through it
    }
    const roots = [workspace, ...visibleRoots];
    if (!roots.some((root) => isWithin(root, target)) || target === workspace) return;
    try {
      const stats = lstatSync(target);
      if (stats.isDirectory()) directories.add(target);
      else files.add(target);
    } catch {
      // gone meanwhile
    }
  };
  const mask = (absolute: string, entry: Dirent) => {
    if (entry.isSymbolicLink()) {
      links.add(absolute);
      maskLinkTarget(absolute);
    } else if (entry.isDirectory()) directories.add(absolute);
    else files.add(absolute);
  };
  const visitGitDirectory = (relative: string, depth: number) => {
    const absolute = path.join(workspace, relative);
    const children = readEntries(absolute) ?? [];
    for (const child of children) {
      const name = child.name.toLowerCase();
      const childRelative = `${relative}/${child.name}`;
      if (GIT_CONFIG_NAMES.includes(name)) {
        if (options.showGitConfig === true) continue;
        mask(path.join(absolute, child.name), child);
      } else if ((name === "modules" || name === "worktrees") && child.isDirectory()) {
        if (depth < MAX_GIT_DEPTH) visitGitContainer(childRelative, depth + 1);
      }
    }
  };
  // `.git/modules` holds one git directory per submodule, nested by the submodule's name.
  const visitGitContainer = (relative: string, depth: number) => {
    for (const child of readEntries(path.join(workspace, relative)) ?? []) {
      if (!child.isDirectory()) continue;
      entries++;
      checkBounds();
      visitGitDirectory(`${relative}/${child.name}`, depth);
      if (depth < MAX_GIT_DEPTH) visitGitContainer(`${relative}/${child.name}`, depth + 1);
    }
  };

  const pending: string[] = [""];
  while (pending.length > 0) {
    const relative = pending.pop() as string;
    const absolute = relative === "" ? workspace : path.join(workspace, relative);
    const children = readEntries(absolute);
    if (children === undefined) continue;
    if (++directoriesRead % DIRECTORIES_PER_SLICE === 0) {
      // Let other work of the process run during a long search.
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const child of children) {
      entries++;
      const childRelative = relative === "" ? child.name : `${relative}/${child.name}`;
      const childAbsolute = path.join(absolute, child.name);
      if (isSecret(childRelative)) {
        mask(childAbsolute, child);
        continue;
      }
      if (!child.isDirectory()) continue;
      const lower = child.name.toLowerCase();
      if (lower === ".git") visitGitDirectory(childRelative, 0);
      else if (!NOT_DESCENDED.has(lower)) pending.push(childRelative);
    }
    checkBounds();
  }

  const maskedDirectories = [...directories].sort();
  const covered = (candidate: string) =>
    maskedDirectories.some(
      (directory) => directory !== candidate && isWithin(directory, candidate),
    );
  const result = {
    files: [...files].filter((file) => !covered(file)).sort(),
    directories: maskedDirectories.filter((directory) => !covered(directory)),
    links: [...links].sort(),
  };
  if (result.files.length + result.directories.length > bounds.maxMasks) {
    refuse(
      `the workspace has ${result.files.length + result.directories.length} secret-looking files and directories, more than the ${bounds.maxMasks} the sandbox masks`,
    );
  }
  return result;
}

/**
 * A test of workspace-relative paths (`/` separators): true for a masked path, a path
 * inside a masked directory, and a secret-looking link whose target is masked. No change
 * of the command may reach such a path.
 */
export function createMaskTest(
  secrets: WorkspaceSecrets,
  workspace: string,
): (relative: string) => boolean {
  const toRelative = (absolute: string) =>
    path.relative(workspace, absolute).split(path.sep).join("/");
  const inside = (absolute: string) => isWithin(workspace, absolute) && absolute !== workspace;
  const files = new Set([...secrets.files, ...secrets.links].filter(inside).map(toRelative));
  const directories = new Set(secrets.directories.filter(inside).map(toRelative));
  return (relative) => {
    if (files.has(relative)) return true;
    let prefix = relative;
    while (prefix !== "") {
      if (directories.has(prefix)) return true;
      const slash = prefix.lastIndexOf("/");
      prefix = slash < 0 ? "" : prefix.slice(0, slash);
    }
    return false;
  };
}
