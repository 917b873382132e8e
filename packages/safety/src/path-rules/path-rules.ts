/**
 * The name rules of the workspace paths that XZatoma treats specially, used by the path
 * guard, the file tools, the command policy and the sandbox alike. The names are one data
 * list ({@link NAMED_PATHS}, a reason per entry), compared with {@link foldName}: `.Git/hooks`,
 * `AGENTS.MD` and `.g\u200cit` are the real files on some file system, and a rule that a
 * capital letter or a zero-width character defeats is no rule.
 *
 * Two levels:
 * - `never`: version-control internals (`.git` at any depth, a gitfile, `.hg`, `.jj`,
 *   `.svn`, ...). File tools never write them; the sandbox keeps them read-only; a git
 *   command that must write them runs only after a person's yes.
 * - `person`: files that make another program run code, or change what an agent does,
 *   when someone merely opens, enters, builds or commits the project. A person's explicit
 *   yes is needed in every mode.
 *
 * These rules judge names only. The judgement of a whole change (hidden paths, executable
 * files, paths git resolves from its configuration) is `judgeFileChange` in file-change.ts.
 * See docs/explanation/trust-boundaries.md for the classes and why.
 */
import { foldName } from "./case-fold.js";
import { NAMED_PATHS, type NamedPath } from "./named-paths.js";

/** How strongly a path is protected against writes. */
export type PathProtection = "never" | "person";

/** Why a path is protected, for the person or model reading the refusal. */
export interface PathConcern {
  readonly protection: PathProtection;
  /** A sentence naming what the path does. */
  readonly reason: string;
  /** What the sandbox's apply does with a command's change there (default `discard`). */
  readonly sandbox?: "discard" | "report";
}

/** `/`- or `\`-separated path → folded components ({@link foldName}) without `.` and empty ones. */
export function pathComponents(relativePath: string): string[] {
  return relativePath
    .split(/[\\/]+/)
    .filter((part) => part !== "" && part !== ".")
    .map(foldName)
    .filter((part) => part !== "");
}

/** A folded component pattern: exact, or `prefix*suffix`. */
type ComponentPattern = string | { readonly prefix: string; readonly suffix: string };

interface CompiledPattern {
  readonly entry: NamedPath;
  readonly components: readonly ComponentPattern[];
  readonly directory: boolean;
}

function compileComponent(text: string): ComponentPattern {
  const star = text.indexOf("*");
  if (star < 0) return foldName(text);
  return { prefix: foldName(text.slice(0, star)), suffix: foldName(text.slice(star + 1)) };
}

function matchesComponent(pattern: ComponentPattern, name: string): boolean {
  if (typeof pattern === "string") return pattern === name;
  return (
    name.length >= pattern.prefix.length + pattern.suffix.length &&
    name.startsWith(pattern.prefix) &&
    name.endsWith(pattern.suffix)
  );
}

function matchesAt(
  components: readonly string[],
  start: number,
  pattern: readonly ComponentPattern[],
): boolean {
  if (start < 0 || start + pattern.length > components.length) return false;
  return pattern.every((part, offset) =>
    matchesComponent(part, components[start + offset] as string),
  );
}

const COMPILED: readonly CompiledPattern[] = NAMED_PATHS.map((entry) => ({
  entry,
  components: entry.pattern
    .split("/")
    .filter((part) => part !== "")
    .map(compileComponent),
  directory: entry.pattern.endsWith("/"),
}));

/** Entries indexed by a component that must occur literally: the first of a directory, the last of a file. */
const DIRECTORY_HEADS = new Map<string, CompiledPattern[]>();
const FILE_TAILS = new Map<string, CompiledPattern[]>();
const WILDCARD_FILES: CompiledPattern[] = [];
for (const compiled of COMPILED) {
  const key = compiled.directory ? compiled.components[0] : compiled.components.at(-1);
  if (typeof key !== "string") {
    if (compiled.directory)
      throw new Error(`${compiled.entry.pattern}: no wildcard in a directory's first component`);
    WILDCARD_FILES.push(compiled);
    continue;
  }
  const index = compiled.directory ? DIRECTORY_HEADS : FILE_TAILS;
  index.set(key, [...(index.get(key) ?? []), compiled]);
}

function concernOf(compiled: CompiledPattern): PathConcern {
  const { entry } = compiled;
  const where = compiled.directory ? `it is under ${entry.pattern}` : `it is ${entry.pattern}`;
  return {
    protection: entry.protection ?? "person",
    reason: `${where}, and ${entry.reason}`,
    ...(entry.sandbox ? { sandbox: entry.sandbox } : {}),
  };
}

/** The named entry that `components` (folded) match, the strongest first; undefined when none. */
function namedMatch(components: readonly string[]): CompiledPattern | undefined {
  const found: CompiledPattern[] = [];
  components.forEach((name, start) => {
    for (const compiled of DIRECTORY_HEADS.get(name) ?? []) {
      if (matchesAt(components, start, compiled.components)) found.push(compiled);
    }
  });
  const last = components.at(-1);
  for (const compiled of [
    ...(last === undefined ? [] : (FILE_TAILS.get(last) ?? [])),
    ...WILDCARD_FILES,
  ]) {
    if (matchesAt(components, components.length - compiled.components.length, compiled.components))
      found.push(compiled);
  }
  const rank = (compiled: CompiledPattern) =>
    compiled.entry.protection === "never" ? 0 : compiled.entry.sandbox === "report" ? 2 : 1;
  return found.sort((a, b) => rank(a) - rank(b))[0];
}

/**
 * Why writing the workspace-relative path `relativePath` is protected by name, or
 * undefined when no named entry covers it. Pure: judges the name only (see
 * `judgeFileChange` for the classes and the checks that look at the file system).
 *
 * @example
 * writeConcern("sub/.GIT/config");   // { protection: "never", … }
 * writeConcern(".vscode/tasks.json"); // { protection: "person", … }
 * writeConcern("src/index.ts");       // undefined
 */
export function writeConcern(relativePath: string): PathConcern | undefined {
  const compiled = namedMatch(pathComponents(relativePath));
  return compiled === undefined ? undefined : concernOf(compiled);
}
