import { readFileSync, realpathSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { parseGitConfig, type GitConfigEntry } from "./git-config-file.js";

/**
 * The paths git resolves from its configuration, read from the configuration git itself
 * reads for a work tree: the system and global files, the repository's `config` (through a
 * gitfile and `commondir` for a linked worktree) and the worktree's `config.worktree`, and
 * every file they include. A write to one of these paths makes git run code on an ordinary
 * command, like a write to `.git/hooks`:
 *
 * - `core.hooksPath`: git runs the hooks found there (relative to the work tree's top);
 * - `include.path` and `includeIf.<condition>.path`: more configuration (relative to the
 *   including file), followed whatever the condition, and protected whether or not the
 *   file exists yet;
 * - every path a value names: tokens with a `/`, and every word of a value that git runs as
 *   a command or opens as a file (`filter.*.clean`, `diff.*.textconv`, `core.fsmonitor`,
 *   `alias.* = !...`, `core.attributesFile`, ...), relative to the work tree's top.
 *
 * Reading fails closed: a file that exists but cannot be read or parsed (git would refuse
 * it too) makes {@link ConfiguredPaths.failure} say why, and the caller protects every path.
 */

/** One path git resolves from configuration, and where that was said. */
export interface ConfiguredPath {
  /** Absolute, as written (lexically resolved). */
  readonly absolute: string;
  /** The same with every existing symlink resolved, when that differs. */
  readonly real?: string;
  readonly reason: string;
}

/** What {@link configuredPaths} found. */
export interface ConfiguredPaths {
  readonly paths: readonly ConfiguredPath[];
  /** Why the configuration could not be read; then every path counts as configured. */
  readonly failure?: string;
}

/** Where to look: the environment git would see (HOME, XDG_CONFIG_HOME, GIT_CONFIG_*). */
export interface ConfiguredPathsOptions {
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** git's own limit on nested includes. */
const MAX_INCLUDE_DEPTH = 10;

/** Keys whose value git runs as a command or opens as a file: every word of them counts. */
const COMMAND_KEY =
  /^(?:.*\.(?:command|textconv|clean|smudge|process|driver|cmd|program|helper|editor|pager|sshcommand|askpass|fsmonitor|hookspath|attributesfile|excludesfile|gitproxy|uploadpack|receivepack|path|browser|tool)|alias\..*|pager\..*)$/;

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

function realOrUndefined(file: string): string | undefined {
  // The deepest existing ancestor, resolved, with the rest appended.
  const missing: string[] = [];
  let current = file;
  for (;;) {
    try {
      const real = realpathSync(current);
      const full = path.join(real, ...missing.reverse());
      return full === file ? undefined : full;
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return undefined;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** The repository's git directory and work-tree top for `root`, walking up as git does. */
function findRepository(root: string): { gitDir: string; top: string } | undefined {
  let directory = root;
  for (;;) {
    const dotGit = path.join(directory, ".git");
    const stats = statOrUndefined(dotGit);
    if (stats?.isDirectory()) return { gitDir: dotGit, top: directory };
    if (stats?.isFile()) {
      const text = readFileSync(dotGit, "utf8");
      const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
      if (match === null) throw new Error(`${dotGit} is a file without a 'gitdir:' line`);
      return { gitDir: path.resolve(directory, match[1] as string), top: directory };
    }
    const parent = path.dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

function expandHome(value: string, home: string): string {
  return value === "~" ? home : value.startsWith("~/") ? path.join(home, value.slice(2)) : value;
}

/** The words of a value, quotes removed, `--opt=value` split, a leading `!` dropped. */
function words(value: string): string[] {
  const found: string[] = [];
  for (const match of value.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    let word = match[1] ?? match[2] ?? match[3] ?? "";
    if (word.startsWith("!")) word = word.slice(1);
    const equals = word.indexOf("=");
    if (word.startsWith("-")) {
      if (equals < 0) continue;
      word = word.slice(equals + 1);
    }
    if (word !== "") found.push(word);
  }
  return found;
}

function isPathLike(word: string): boolean {
  if (word.includes("://") || /^[\w.-]+@[\w.-]+:/.test(word)) return false;
  return word.includes("/") || word.startsWith(".") || word.startsWith("~");
}

/** Values that are not paths: numbers, booleans, plain words of keys that name no file. */
function pathsOfEntry(entry: GitConfigEntry): string[] {
  if (entry.value === undefined) return [];
  const key = `${entry.section}.${entry.subsection === undefined ? "" : `${entry.subsection}.`}${entry.name}`;
  const all =
    COMMAND_KEY.test(key.toLowerCase()) || COMMAND_KEY.test(`${entry.section}.${entry.name}`);
  return words(entry.value).filter((word) => all || isPathLike(word));
}

interface Collector {
  readonly paths: ConfiguredPath[];
  readonly read: string[];
}

function add(collector: Collector, absolute: string, reason: string): void {
  const real = realOrUndefined(absolute);
  collector.paths.push({ absolute, ...(real ? { real } : {}), reason });
}

function readConfigFile(
  file: string,
  depth: number,
  context: { top: string | undefined; home: string },
  collector: Collector,
): void {
  // Watched even when missing: the file appearing later changes the answer.
  collector.read.push(file);
  const stats = statOrUndefined(file);
  if (stats === undefined) return;
  if (!stats.isFile()) throw new Error(`${file} is not a regular file`);
  const entries = parseGitConfig(readFileSync(file, "utf8"));
  const shown = path.basename(file);
  for (const entry of entries) {
    const isInclude =
      entry.name === "path" && (entry.section === "include" || entry.section === "includeif");
    if (isInclude && entry.value !== undefined && entry.value !== "") {
      const target = path.resolve(path.dirname(file), expandHome(entry.value, context.home));
      add(collector, target, `git reads it as configuration (an include in ${shown})`);
      if (depth >= MAX_INCLUDE_DEPTH) throw new Error(`${file} nests includes too deeply`);
      readConfigFile(target, depth + 1, context, collector);
      continue;
    }
    if (context.top === undefined) continue;
    const isHooks = entry.section === "core" && entry.name === "hookspath";
    for (const word of pathsOfEntry(entry)) {
      const absolute = path.resolve(context.top, expandHome(word, context.home));
      add(
        collector,
        absolute,
        isHooks
          ? `git runs the hooks in it (core.hooksPath in ${shown})`
          : `git's configuration names it (${entry.section}.${entry.name} in ${shown}), and git may run or read it`,
      );
    }
  }
}

/** The configuration files git reads for a repository, in git's order. */
function configFiles(
  repository: { gitDir: string; top: string } | undefined,
  options: ConfiguredPathsOptions,
): string[] {
  const { env, home } = options;
  const files: string[] = [];
  if (env.GIT_CONFIG_NOSYSTEM === undefined || env.GIT_CONFIG_NOSYSTEM === "")
    files.push(env.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig");
  if (env.GIT_CONFIG_GLOBAL !== undefined) files.push(env.GIT_CONFIG_GLOBAL);
  else {
    const xdg = env.XDG_CONFIG_HOME || path.join(home, ".config");
    files.push(path.join(xdg, "git", "config"), path.join(home, ".gitconfig"));
  }
  if (repository !== undefined) {
    const commondirFile = path.join(repository.gitDir, "commondir");
    const common = statOrUndefined(commondirFile)
      ? path.resolve(repository.gitDir, readFileSync(commondirFile, "utf8").trim())
      : repository.gitDir;
    files.push(path.join(common, "config"), path.join(repository.gitDir, "config.worktree"));
  }
  return files.filter((file) => file !== "" && file !== "/dev/null");
}

interface Cached {
  /** Every file the result came from (includes too), and the `.git` entry. */
  readonly files: readonly string[];
  readonly signature: string;
  readonly result: ConfiguredPaths;
}

const cache = new Map<string, Cached>();

function signatureOf(files: readonly string[]): string {
  return files
    .map((file) => {
      let stats: Stats | undefined;
      try {
        stats = statOrUndefined(file);
      } catch {
        return "!";
      }
      return stats === undefined
        ? "-"
        : `${String(stats.ino)}:${String(stats.size)}:${String(stats.mtimeMs)}:${String(stats.ctimeMs)}`;
    })
    .join("|");
}

/**
 * The paths git resolves from configuration for the work tree holding `root` (see the
 * module comment). Synchronous, so the sandbox can judge each change as it applies it;
 * the result is cached and read again when any file it came from changes.
 */
export function configuredPaths(root: string, options: ConfiguredPathsOptions): ConfiguredPaths {
  const { env } = options;
  const cacheKey = [
    root,
    options.home,
    env.XDG_CONFIG_HOME,
    env.GIT_CONFIG_GLOBAL,
    env.GIT_CONFIG_SYSTEM,
    env.GIT_CONFIG_NOSYSTEM,
  ].join("\0");
  let repository: { gitDir: string; top: string } | undefined;
  let files: string[];
  try {
    repository = findRepository(root);
    files = configFiles(repository, options);
  } catch (error) {
    return { paths: [], failure: describe(error) };
  }
  const wanted = [...files, ...(repository ? [path.join(repository.top, ".git")] : [])];
  const cached = cache.get(cacheKey);
  if (
    cached !== undefined &&
    wanted.every((file) => cached.files.includes(file)) &&
    signatureOf(cached.files) === cached.signature
  )
    return cached.result;
  const collector: Collector = { paths: [], read: [] };
  let result: ConfiguredPaths;
  try {
    for (const file of files)
      readConfigFile(file, 0, { top: repository?.top, home: options.home }, collector);
    result = { paths: collector.paths };
  } catch (error) {
    result = { paths: [], failure: describe(error) };
  }
  const read = [...new Set([...wanted, ...collector.read])];
  cache.set(cacheKey, { files: read, signature: signatureOf(read), result });
  return result;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
