import { MOVED, type Arg, type ArgvContext, type PolicyContext } from "./context.js";
import type { Findings } from "./findings.js";
import type { SyntaxNode } from "./syntax-node.js";
import type { WordInfo, WordScope } from "./words.js";

/** The state of one walk over a syntax tree. */
export interface WalkScope {
  readonly policy: PolicyContext;
  readonly findings: Findings;
  readonly depth: number;
  /**
   * Variables the script assigned so far, in script order: the value when it was literal,
   * null when it was computed. `PWD` is the directory the script is in, null after a `cd`.
   */
  readonly env: Map<string, string | null>;
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

/** What the words of a walk may know. */
export function wordScope(scope: WalkScope, assignment = false): WordScope {
  return { vars: scope.env, home: scope.policy.home, assignment };
}

/** The context program rules get for a command walked in `scope`. */
export function argvContext(scope: WalkScope): ArgvContext {
  const pwd = scope.env.get("PWD") ?? MOVED;
  return {
    policy: scope.policy,
    findings: scope.findings,
    depth: scope.depth,
    wrappers: [],
    cwd: pwd === scope.policy.root ? null : pwd,
  };
}

/** The argument one evaluated word stands for. */
export function toArg(info: WordInfo): Arg {
  return { value: info.value ?? "", known: info.value !== null, plain: info.plain, raw: info.raw };
}
