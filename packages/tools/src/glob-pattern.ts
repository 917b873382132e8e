// Glob patterns compiled to regular expressions over `/`-separated relative paths.
// The same segment compiler serves find_path and grep (`*`, `**`, `?`, `[...]`, `{a,b}`)
// and .gitignore rules (no braces, dot files matched by `*`).

/** A glob the compiler cannot use; the message is written for the model. */
export class GlobSyntaxError extends Error {
  override readonly name = "GlobSyntaxError";
}

/** At most this many patterns come out of brace expansion. */
export const MAX_BRACE_EXPANSIONS = 256;

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/-]/g;
const MAGIC = /[*?[{\\]/;

function escapeRegex(text: string): string {
  return text.replace(REGEX_SPECIAL, "\\$&");
}

/** Expands `{a,b}` alternatives (nested too); braces without a comma stay literal. */
export function expandBraces(pattern: string): string[] {
  for (let start = 0; start < pattern.length; start++) {
    const character = pattern[start];
    if (character === "\\") {
      start++;
      continue;
    }
    if (character !== "{") continue;
    let depth = 0;
    let end = -1;
    const commas: number[] = [];
    for (let index = start; index < pattern.length && end < 0; index++) {
      const inner = pattern[index];
      if (inner === "\\") index++;
      else if (inner === "{") depth++;
      else if (inner === "}" && --depth === 0) end = index;
      else if (inner === "," && depth === 1) commas.push(index);
    }
    if (end < 0) return [pattern];
    if (commas.length === 0) continue;
    const prefix = pattern.slice(0, start);
    const suffix = pattern.slice(end + 1);
    const bounds = [start, ...commas, end];
    const expanded: string[] = [];
    for (let part = 0; part + 1 < bounds.length; part++) {
      const alternative = pattern.slice((bounds[part] ?? 0) + 1, bounds[part + 1]);
      for (const result of expandBraces(prefix + alternative + suffix)) {
        expanded.push(result);
        if (expanded.length > MAX_BRACE_EXPANSIONS) {
          throw new GlobSyntaxError(
            `The glob '${pattern}' expands to more than ${MAX_BRACE_EXPANSIONS} patterns. Use fewer {a,b} alternatives.`,
          );
        }
      }
    }
    return expanded;
  }
  return [pattern];
}

/** Compiles `[...]` starting at `start`; undefined when there is no closing `]`. */
function characterClass(
  segment: string,
  start: number,
): { source: string; end: number } | undefined {
  let index = start + 1;
  const negated = segment[index] === "!" || segment[index] === "^";
  if (negated) index++;
  let body = "";
  for (let first = true; index < segment.length; index++, first = false) {
    const character = segment[index] as string;
    if (character === "]" && !first) {
      return { source: negated ? `[^/${body}]` : `(?!/)[${body}]`, end: index };
    }
    if (character === "\\" && index + 1 < segment.length) {
      body += `\\${segment[++index] as string}`;
    } else {
      body += character === "-" ? "-" : character.replace(/[\\\]^[]/, "\\$&");
    }
  }
  return undefined;
}

/** The regular expression source of one path segment (no `/` inside). */
export function segmentSource(segment: string, dot: boolean): string {
  let source = "";
  for (let index = 0; index < segment.length; index++) {
    const character = segment[index] as string;
    if (character === "\\" && index + 1 < segment.length) {
      source += escapeRegex(segment[++index] as string);
    } else if (character === "*") {
      while (segment[index + 1] === "*") index++;
      source += "[^/]*";
    } else if (character === "?") {
      source += "[^/]";
    } else {
      const compiled = character === "[" ? characterClass(segment, index) : undefined;
      source += compiled?.source ?? escapeRegex(character);
      index = compiled?.end ?? index;
    }
  }
  const explicitDot = segment.startsWith(".") || segment.startsWith("\\.");
  return dot || explicitDot ? source : `(?!\\.)${source}`;
}

/** The regular expression source of a whole `/`-separated pattern without braces. */
export function pathSource(pattern: string, dot: boolean): string {
  const segments = pattern.split("/").filter((segment) => segment !== "");
  const any = dot ? "[^/]+" : "(?!\\.)[^/]+";
  let source = "";
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === "**") source += last ? `${any}(?:/${any})*` : `(?:${any}/)*`;
    else source += segmentSource(segment, dot) + (last ? "" : "/");
  });
  return source;
}

/** A compiled glob: tests relative paths such as `src/index.ts`. */
export interface CompiledGlob {
  readonly pattern: string;
  /** True when a trailing `/` asks for directories only. */
  readonly directoriesOnly: boolean;
  /** Deepest match in segments, or undefined when `**` makes it unbounded. */
  readonly maxDepth: number | undefined;
  /** Whether a segment names dot entries explicitly (`.github/*`). */
  readonly namesDotEntries: boolean;
  matches(relativePath: string, isDirectory: boolean): boolean;
}

/**
 * Compiles a glob relative to the workspace root. With `dot: false`, `*`, `?` and `**`
 * skip names that start with `.` unless the pattern spells the dot out.
 */
export function compileGlob(pattern: string, options: { readonly dot: boolean }): CompiledGlob {
  let body = pattern.trim();
  while (body.startsWith("./")) body = body.slice(2);
  const directoriesOnly = body.endsWith("/");
  if (directoriesOnly) body = body.replace(/\/+$/, "");
  if (body === "")
    throw new GlobSyntaxError("The glob is empty. Give a pattern such as '**/*.ts'.");
  const alternatives = expandBraces(body);
  const segmentsOf = (alternative: string) => alternative.split("/").filter((part) => part !== "");
  let regex: RegExp;
  try {
    regex = new RegExp(
      `^(?:${alternatives.map((alternative) => pathSource(alternative, options.dot)).join("|")})$`,
    );
  } catch {
    throw new GlobSyntaxError(
      `The glob '${pattern}' has an invalid character class. Check the [...] parts.`,
    );
  }
  const unbounded = alternatives.some((alternative) => segmentsOf(alternative).includes("**"));
  return {
    pattern,
    directoriesOnly,
    maxDepth: unbounded
      ? undefined
      : Math.max(...alternatives.map((alternative) => segmentsOf(alternative).length)),
    namesDotEntries: alternatives.some((alternative) =>
      segmentsOf(alternative).some((segment) => segment.startsWith(".")),
    ),
    matches: (relativePath, isDirectory) =>
      (!directoriesOnly || isDirectory) && regex.test(relativePath),
  };
}

/** The leading segments of a glob that hold no wildcard: where a walk can start. */
export function globBase(pattern: string): string {
  const segments = pattern
    .trim()
    .replace(/^(\.\/)+/, "")
    .split("/");
  const base: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (segment === "" || MAGIC.test(segment)) break;
    base.push(segment);
  }
  return base.join("/");
}
