// Globs of find_path and grep over `/`-separated paths relative to the workspace root,
// matched with picomatch (`*`, `**`, `?`, `[...]`, `{a,b}`, extglobs). What is ours: a
// trailing `/` for directories only, the depth bound and the dot-entry hint for the walk.
import { XzatomaError } from "@xzatoma/errors";
import picomatch from "picomatch";

/**
 * A glob the compiler cannot use (code `GLOB_INVALID`); the message is written for the
 * model, and `fields.pattern` is the glob as given.
 */
export class GlobSyntaxError extends XzatomaError<{ readonly pattern: string }> {
  declare readonly code: "GLOB_INVALID";
  override readonly name = "GlobSyntaxError";

  constructor(message: string, pattern: string) {
    super("GLOB_INVALID", message, { fields: { pattern } });
  }
}

/** Globs longer than this are refused (picomatch's parse time grows with nesting). */
export const MAX_GLOB_LENGTH = 1024;

/** A compiled glob: tests relative paths such as `src/index.ts`. */
export interface CompiledGlob {
  readonly pattern: string;
  /** True when a trailing `/` asks for directories only. */
  readonly directoriesOnly: boolean;
  /**
   * Deepest match in segments (an upper bound), or undefined when `**`, a negation or an
   * extglob/group makes it unbounded.
   */
  readonly maxDepth: number | undefined;
  /** Whether a segment names dot entries explicitly (`.github/*`): the walk must list them. */
  readonly namesDotEntries: boolean;
  matches(relativePath: string, isDirectory: boolean): boolean;
}

/** The glob without surrounding spaces and leading `./`. */
function normalise(pattern: string): string {
  let body = pattern.trim();
  while (body.startsWith("./")) body = body.slice(2);
  return body;
}

/**
 * Compiles a glob relative to the workspace root. With `dot: false`, `*`, `?` and `**`
 * skip names that start with `.` unless the pattern spells the dot out.
 */
export function compileGlob(pattern: string, options: { readonly dot: boolean }): CompiledGlob {
  let body = normalise(pattern);
  const directoriesOnly = body.endsWith("/");
  if (directoriesOnly) body = body.replace(/\/+$/, "");
  if (body === "")
    throw new GlobSyntaxError("The glob is empty. Give a pattern such as '**/*.ts'.", pattern);
  if (body.length > MAX_GLOB_LENGTH) {
    throw new GlobSyntaxError(
      `The glob is longer than ${MAX_GLOB_LENGTH} characters. Give a shorter pattern.`,
      pattern,
    );
  }
  // `dir/**` is what is inside dir, as in git and ripgrep (picomatch would match dir too).
  const source = body.endsWith("/**") ? `${body}/*` : body;
  let test: (path: string) => boolean;
  try {
    // posix: `[!a]` negates as `[^a]` does (without it picomatch 4 reads `!` as a member);
    // debug: an invalid class throws instead of silently matching nothing.
    test = picomatch(source, { dot: options.dot, posix: true, debug: true });
  } catch {
    throw new GlobSyntaxError(
      `The glob '${pattern}' has an invalid character class. Check the [...] parts.`,
      pattern,
    );
  }
  const unbounded = body.includes("**") || body.startsWith("!") || body.includes("(");
  return {
    pattern,
    directoriesOnly,
    // Every alternative of {a,b/c} has at most as many segments as the pattern has `/` + 1.
    maxDepth: unbounded ? undefined : body.split("/").length,
    namesDotEntries: /(?:^|[/{,(|])\./.test(body),
    matches: (relativePath, isDirectory) => (!directoriesOnly || isDirectory) && test(relativePath),
  };
}

/** The leading directories of a glob that hold no wildcard: where a walk can start. */
export function globBase(pattern: string): string {
  const scanned = picomatch.scan(normalise(pattern));
  if (scanned.negated) return "";
  // A pattern without wildcards (`README.md`) names an entry; the walk starts at its parent.
  const base = scanned.isGlob ? scanned.base : scanned.base.split("/").slice(0, -1).join("/");
  return base.replace(/\/+$/, "");
}
