import { homedir } from "node:os";
import path from "node:path";
import { foldName } from "./path-rules/case-fold.js";
import { configuredPaths } from "./path-rules/git-configured-paths.js";
import { writeConcern, type PathConcern } from "./path-rules/path-rules.js";
import { isSecretPath } from "./path-rules/secret-paths.js";

/** Where git and the user's startup files are looked up: the environment of the person's own programs. */
export interface PathEnvironment {
  /** The user's home directory. Default `os.homedir()`. */
  readonly home?: string;
  /** The variables git reads (XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL, ...). Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

function within(parent: string, candidate: string): boolean {
  const relative = path.relative(parent, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** `candidate` is `parent` or below it, comparing folded components (a case-insensitive file system opens both). */
export function withinFolded(parent: string, candidate: string): boolean {
  const parts = (text: string) =>
    text
      .split(/[\\/]+/)
      .filter((part) => part !== "")
      .map(foldName);
  const above = parts(parent);
  const below = parts(candidate);
  return above.length <= below.length && above.every((name, index) => below[index] === name);
}

/**
 * Why the path `absolute` is one git resolves from configuration (core.hooksPath, an
 * include, a path a filter or alias names), or undefined. When the configuration cannot be
 * read, every path is protected: which ones git runs cannot be told.
 */
export function configuredConcern(
  root: string,
  absolute: string,
  environment: PathEnvironment = {},
  options: { readonly link?: boolean } = {},
): PathConcern | undefined {
  const found = configuredPaths(root, {
    home: environment.home ?? homedir(),
    env: environment.env ?? process.env,
  });
  if (found.failure !== undefined) {
    return {
      protection: "person",
      sandbox: "discard",
      reason: `git's configuration for this workspace could not be read (${found.failure}), so which paths git runs cannot be told`,
    };
  }
  for (const configured of found.paths) {
    for (const place of [configured.absolute, configured.real]) {
      if (place === undefined) continue;
      // A link above a configured path redirects it; anything at or below it is it.
      if (withinFolded(place, absolute) || (options.link === true && withinFolded(absolute, place)))
        return { protection: "never", reason: configured.reason };
    }
  }
  return undefined;
}

/**
 * Why `absolute` is a user's startup or configuration file of the home directory that the
 * workspace at `root` holds (a hidden path below it, or `~/bin`), or undefined. A workspace
 * that is a home directory or holds one protects them all.
 */
export function homeConcern(
  root: string,
  absolute: string,
  environment: PathEnvironment = {},
): PathConcern | undefined {
  const home = path.resolve(environment.home ?? homedir());
  if (!within(root, home) || !within(home, absolute)) return undefined;
  const below = path
    .relative(home, absolute)
    .split(path.sep)
    .filter((part) => part !== "");
  const folded = below.map(foldName);
  if (folded.some((name) => name.startsWith(".")) || folded[0] === "bin") {
    return {
      protection: "person",
      reason: `it is a startup or configuration file of the user's home directory, which the workspace holds`,
    };
  }
  return undefined;
}

/**
 * Why writing `absolute` (a real path) is protected for a workspace at `root`, or
 * undefined. `extra` paths (XZatoma's own config, audit log and history database, with
 * everything below them) are never written. Then the named entries (see path-rules.ts), the
 * paths git resolves from configuration, and a home directory's startup files when the
 * workspace holds it. Outside the root only the names count, so a shell startup file is
 * protected wherever it is.
 */
export function protectionOf(
  root: string,
  absolute: string,
  extra: readonly string[] = [],
  environment: PathEnvironment = {},
): PathConcern | undefined {
  if (extra.some((protectedPath) => within(protectedPath, absolute))) {
    return { protection: "never", reason: "it belongs to XZatoma itself" };
  }
  const inside = within(root, absolute);
  const named = writeConcern(inside ? path.relative(root, absolute) : absolute);
  if (named?.protection === "never") return named;
  return strongestConcern([
    named,
    inside ? configuredConcern(root, absolute, environment) : undefined,
    homeConcern(root, absolute, environment),
  ]);
}

/** How strong a concern is: 0 `never`, 1 a person's yes and discarded in the sandbox, 2 a person's yes and reported there. */
function strength(concern: PathConcern): number {
  if (concern.protection === "never") return 0;
  return concern.sandbox === "report" ? 2 : 1;
}

/** The strongest of `concerns` (the first of equals), or undefined when there is none. */
export function strongestConcern(
  concerns: readonly (PathConcern | undefined)[],
): PathConcern | undefined {
  let best: PathConcern | undefined;
  for (const concern of concerns) {
    if (concern !== undefined && (best === undefined || strength(concern) < strength(best)))
      best = concern;
  }
  return best;
}

/** Whether writing `absolute` (a real path) is protected at any level. */
export function isProtectedPath(
  root: string,
  absolute: string,
  extra: readonly string[] = [],
): boolean {
  return protectionOf(root, absolute, extra) !== undefined;
}

/** Whether a file name or path looks like it holds secrets: the same as {@link isSecretPath}. */
export function isSecretFileName(name: string): boolean {
  return isSecretPath(name);
}
