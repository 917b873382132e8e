import type { Findings } from "./findings.js";
import type { BashParser } from "./parse-command.js";

/** How a script found inside another command is analysed. */
export type NestedMode =
  /** A real script (`bash -c`, `git -c core.pager=…`): every finding counts. */
  | "script"
  /** Text that may be a command (a string in interpreter code): only clear blocks count. */
  | "literal";

/** What every rule may consult: the policy's configuration and its parser. */
export interface PolicyContext {
  /** The real path of the workspace root. */
  readonly root: string;
  /** The home directory `~` and `$HOME` stand for. */
  readonly home: string;
  readonly allowlist: ReadonlySet<string>;
  /** The user's denylist entries, split into words (see `CommandPolicyOptions.denylist`). */
  readonly userDenylist: readonly (readonly string[])[];
  readonly parser: BashParser;
  readonly parseTimeoutMs: number;
  /**
   * Analyses a script found inside another command, `depth` levels down; `positional`
   * holds `$0`, `$1`, … when the script gets arguments (`sh -c 'rm -rf "$1"' x /`), and
   * `cwd` the directory it runs in when the outer script moved (`cd /etc; sh -c 'cat passwd'`).
   */
  readonly nested: (
    text: string,
    depth: number,
    mode: NestedMode,
    positional?: readonly string[],
    cwd?: string | null,
  ) => Findings;
}

/** One argument as the rules see it, after static evaluation. */
export interface Arg {
  /** The value, or the best guess of it when it is computed. */
  readonly value: string;
  /** The value is fixed (no expansion, substitution, glob, tilde or brace). */
  readonly exact: boolean;
  /** Exact and spelled with literal text, plain quotes and backslashes only. */
  readonly plain: boolean;
  readonly glob: boolean;
  /** Comes from a command or process substitution. */
  readonly substituted: boolean;
  /** The source text, for reasons. */
  readonly raw: string;
  /** Part of the value comes from an expansion the check cannot know (`$x` set elsewhere). */
  readonly unknown?: boolean;
  /** All of the value comes from such expansions (`"$x"`): the text is invisible to the check. */
  readonly opaque?: boolean;
}

/** Where a command's standard input comes from. */
export interface StdinInfo {
  readonly kind: "none" | "pipe" | "file" | "heredoc" | "herestring";
  /** Programs earlier in the pipeline. */
  readonly upstream: readonly string[];
  /** The input text when it is known statically (`echo / | …`, `<<< 'text'`). */
  readonly text: string | null;
  /** The input is downloaded or decoded (a fetcher or decoder upstream) or comes from a substitution. */
  readonly computed: boolean;
  /** The input text is entirely a value the check cannot know (`<<< "$x"`). */
  readonly opaque?: boolean;
  /** The file it is read from (`< f`), when `kind` is `file`. */
  readonly source?: string;
}

/** No standard input worth knowing about. */
export const NO_STDIN: StdinInfo = { kind: "none", upstream: [], text: null, computed: false };

/** Everything a program rule needs besides the argv. */
export interface ArgvContext {
  readonly policy: PolicyContext;
  readonly findings: Findings;
  /** How many scripts deep this command is (0 for the command as given). */
  readonly depth: number;
  readonly stdin: StdinInfo;
  /** Wrappers already unwrapped around this argv (`env`, `timeout`, `sudo`, …). */
  readonly wrappers: readonly string[];
  /**
   * The argv was found inside data (arguments of an unknown program, interpreter strings,
   * unparsable text): only clear blocks count and no path is checked.
   */
  readonly embedded: boolean;
  /**
   * The directory relative paths resolve against when it is not the workspace root (the
   * check's `cwd` option, or `cd /` in the script); null for the root.
   */
  readonly cwd: string | null;
  /** Files the script downloaded so far (`curl -o`, `wget`, `curl … > f`): running one blocks. */
  readonly downloads: Set<string>;
}

/** An argument built from text that is known exactly. */
export function literalArg(value: string): Arg {
  return { value, exact: true, plain: true, glob: false, substituted: false, raw: value };
}

/** Checks one argv with every program rule (passed to rules that find a command inside a command). */
export type RunArgv = (args: readonly Arg[], ctx: ArgvContext) => void;
