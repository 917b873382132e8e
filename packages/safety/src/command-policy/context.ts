import type { Findings } from "./findings.js";
import type { ForbiddenRule } from "./forbidden-rules.js";
import type { BashParser } from "./parse-command.js";

/** What every rule may consult: the policy's configuration and its parser. */
export interface PolicyContext {
  /** The real path of the workspace root. */
  readonly root: string;
  /** The home directory `~` and `$HOME` stand for. */
  readonly home: string;
  readonly allowlist: ReadonlySet<string>;
  /** The user's denylist entries, split into words (see `CommandPolicyOptions.denylist`). */
  readonly userDenylist: readonly (readonly string[])[];
  /** The forbidden rules, loaded and checked against their examples. */
  readonly forbiddenRules: readonly ForbiddenRule[];
  readonly parser: BashParser;
  /**
   * Receives the argv of every simple command of the command as given (not of nested
   * scripts), in order, null for one that is not plain words: the second lexer's check.
   */
  readonly collect?: (readonly string[] | null)[];
  readonly parseTimeoutMs: number;
  /**
   * Analyses a script found inside another command, `depth` levels down; `positional`
   * holds `$0`, `$1`, … when the script gets arguments (`sh -c 'rm -rf "$1"' x /`), and
   * `cwd` the directory it runs in (see {@link ArgvContext.cwd}).
   */
  readonly nested: (
    text: string,
    depth: number,
    positional?: readonly (string | null)[],
    cwd?: string | null,
  ) => Findings;
}

/** One argument as the rules see it, after static evaluation. */
export interface Arg {
  /** The value, or "" when the shell computes it (see `known`). */
  readonly value: string;
  /** The value is known: literal, `~/…`, `$HOME` or a variable the script set literally. */
  readonly known: boolean;
  /** Spelled with literal text, plain quotes and backslashes only. */
  readonly plain: boolean;
  /** The source text, for reasons. */
  readonly raw: string;
}

/** Everything a program rule needs besides the argv. */
export interface ArgvContext {
  readonly policy: PolicyContext;
  readonly findings: Findings;
  /** How many scripts deep this command is (0 for the command as given). */
  readonly depth: number;
  /** Wrappers already unwrapped around this argv (`env`, `timeout`, `nice`, …). */
  readonly wrappers: readonly string[];
  /**
   * The directory relative paths resolve against when it is not the workspace root (the
   * check's `cwd` option); null for the root; {@link MOVED} after a `cd` in the script.
   */
  readonly cwd: string | null;
}

/** An argument built from text that is known exactly. */
export function literalArg(value: string): Arg {
  return { value, known: true, plain: true, raw: value };
}

/** The `cwd` of a command after the script changed directory: relative paths are unknown places. */
export const MOVED = "\u0000moved";

/** Checks one argv with every program rule (passed to rules that find a command inside a command). */
export type RunArgv = (args: readonly Arg[], ctx: ArgvContext) => void;
