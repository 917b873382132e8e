import type { Arg, ArgvContext, PolicyContext } from "./context.js";
import type { Findings } from "./findings.js";
import type { SyntaxNode } from "./syntax-node.js";
import type { WordInfo, WordScope } from "./words.js";
import { directoryStack, UNKNOWN_DIRECTORY } from "./working-directory.js";

/** The state of one walk over a syntax tree. */
export interface WalkScope {
  readonly policy: PolicyContext;
  readonly findings: Findings;
  readonly depth: number;
  /** Variables the script assigned so far (best guesses), in script order. */
  readonly env: Map<string, string>;
}

/** Callbacks the walker hands to the command and redirect handlers. */
export interface WalkHooks {
  /** Walks command and process substitutions (and statements) anywhere below `node`. */
  visitNested(node: SyntaxNode, scope: WalkScope): void;
  /** Like `visitNested`, for `node` itself too (a word that is a substitution). */
  visitNode(node: SyntaxNode, scope: WalkScope): void;
  /** Walks one statement; returns its argv when it is one simple command of plain words. */
  visitStatement(node: SyntaxNode, scope: WalkScope): readonly string[] | null;
}

/** Variables whose value is known without the script setting them (the shell runs as bash). */
const WELL_KNOWN: ReadonlyMap<string, string> = new Map([
  ["IFS", " \t\n"],
  ["0", "bash"],
  ["SHELL", "/bin/bash"],
  ["BASH", "/bin/bash"],
]);

/**
 * The variables a word may use: the script's assignments, then `HOME`, `IFS`, `PWD`.
 * `OLDPWD` comes from the environment until the script changes directory: a directory
 * the check cannot know.
 */
export function wordScope(scope: WalkScope): WordScope {
  const home = scope.env.get("HOME") ?? scope.policy.home;
  return {
    home,
    lookup: (name) =>
      scope.env.get(name) ??
      WELL_KNOWN.get(name) ??
      (name === "HOME"
        ? home
        : name === "PWD"
          ? scope.policy.root
          : name === "OLDPWD"
            ? UNKNOWN_DIRECTORY
            : undefined),
    directories: () => directoryStack(scope.env, scope.policy.root),
  };
}

/** The directory the walk is in, or null for the workspace root. */
export function currentDirectory(scope: WalkScope): string | null {
  const pwd = scope.env.get("PWD");
  return pwd === undefined || pwd === scope.policy.root ? null : pwd;
}

/** The context program rules get for a command walked in `scope`. */
export function argvContext(scope: WalkScope): ArgvContext {
  return {
    policy: scope.policy,
    findings: scope.findings,
    depth: scope.depth,
    wrappers: [],
    cwd: currentDirectory(scope),
  };
}

/** The arguments one evaluated word stands for. */
export function toArgs(info: WordInfo): Arg[] {
  return info.guesses.map((value) => ({
    value,
    exact: info.exact,
    plain: info.plain,
    glob: info.glob,
    substituted: info.substituted,
    raw: info.raw,
    unknown: info.unknown,
    opaque: info.opaque,
  }));
}
