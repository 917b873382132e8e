// Globs of find_path and grep over `/`-separated paths relative to the workspace root
// (`*`, `**`, `?`, `[...]`, `{a,b}`, `{1..9}`, extglobs), matched by @xzatoma/safety's
// pattern automaton, which never backtracks: a model's glob cannot hold the main thread.
// What is ours: a trailing `/` for directories only, and the walk's hints.
import { XzatomaError } from "@xzatoma/errors";
import {
  compilePathGlob,
  PatternBudgetError,
  PatternSyntaxError,
  type PathGlob,
} from "@xzatoma/safety";

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

/** Globs longer than this are refused. */
export const MAX_GLOB_LENGTH = 1024;

/** A compiled glob: tests relative paths such as `src/index.ts`. */
export interface CompiledGlob {
  readonly pattern: string;
  /** True when a trailing `/` asks for directories only. */
  readonly directoriesOnly: boolean;
  /**
   * Deepest match in segments (an upper bound), or undefined when `**`, a negation or a
   * repeated group with a `/` makes it unbounded.
   */
  readonly maxDepth: number | undefined;
  /** Whether a segment names dot entries explicitly (`.github/*`): the walk must list them. */
  readonly namesDotEntries: boolean;
  /** The literal leading directories, where a walk can start ("" for the root). */
  readonly base: string;
  /**
   * Whether the path matches. Throws {@link GlobSyntaxError} when a huge glob against a
   * huge path passes the matcher's step budget.
   */
  matches(relativePath: string, isDirectory: boolean): boolean;
}

/** The glob without surrounding spaces and leading `./`. */
function normalise(pattern: string): string {
  let body = pattern.trim();
  while (body.startsWith("./")) body = body.slice(2);
  return body;
}

/**
 * Compiles a glob relative to the workspace root. With `dot: false`, `*`, `?`, classes
 * and `**` skip names that start with `.` unless the pattern spells the dot out.
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
  let glob: PathGlob;
  try {
    glob = compilePathGlob(body, { dot: options.dot });
  } catch (error) {
    if (!(error instanceof PatternSyntaxError)) throw error;
    throw new GlobSyntaxError(`The glob '${pattern}' cannot be used: ${error.message}`, pattern);
  }
  return {
    pattern,
    directoriesOnly,
    maxDepth: glob.maxNames,
    namesDotEntries: glob.spellsDot,
    base: glob.base,
    matches(relativePath, isDirectory) {
      if (directoriesOnly && !isDirectory) return false;
      try {
        return glob.matches(relativePath);
      } catch (error) {
        if (!(error instanceof PatternBudgetError)) throw error;
        throw new GlobSyntaxError(
          `The glob '${pattern}' is too complex to match against '${relativePath}'. Give a simpler pattern.`,
          pattern,
        );
      }
    },
  };
}
