import type { PathGuard } from "../path-guard.js";

/**
 * The classification of one shell command in restricted autonomous mode: `allow` runs
 * without asking, `confirm` needs a person's yes, `block` is refused in every mode.
 */
export type CommandVerdict = "allow" | "confirm" | "block";

/** What the command policy decided about one command, and why. */
export interface CommandDecision {
  /** The verdict for restricted autonomous mode. */
  readonly verdict: CommandVerdict;
  /** One sentence a user or model can act on, naming the offending program, flag or path. */
  readonly reason: string;
  /** Programs found, normalised (unquoted, basename, wrappers unwrapped), in order of appearance. */
  readonly programs: readonly string[];
  /**
   * The command reads a path that looks secret or may be a file outside the workspace (a
   * hard link): only a person's yes should let it run, as for the file tools.
   */
  readonly readsSecrets?: boolean;
  /**
   * Part of the command could not be analysed: it did not parse, its parse ran past the
   * deadline, it is over a length or nesting cap, or its working directory does not resolve.
   * Its paths were not checked, so, as for {@link readsSecrets}, only a person's yes should
   * let it run, in every mode (full autonomous mode included).
   */
  readonly unanalysed?: boolean;
}

/** Options of {@link createCommandPolicy}. */
export interface CommandPolicyOptions {
  /** The workspace root and the checks every path argument must pass. */
  readonly pathGuard: PathGuard;
  /** Read-only programs that may run unasked; defaults to {@link DEFAULT_ALLOWLIST}. */
  readonly allowlist?: readonly string[];
  /**
   * The user's own refusals, each a program with optional words that follow it: `docker`,
   * `git push`, `npm publish`. A simple command matches when its program is the entry's
   * first word and the entry's other words appear among its arguments in order (so
   * `git -C . push` matches `git push`). Every simple command is checked, inside wrappers,
   * `sh -c` scripts and substitutions too; a match is `block`.
   */
  readonly denylist?: readonly string[];
  /** Most simple commands one input may hold; over the cap is never `allow`. Default 16. */
  readonly maxSegments?: number;
  /**
   * A parse that takes longer than this fails closed (never `allow`, and `unanalysed`).
   * Counted in CPU time of the calling thread where the runtime reports it, so a machine
   * busy with other work does not turn a plain command into a refusal. Default 50 ms.
   */
  readonly parseTimeoutMs?: number;
}

/** Options of one {@link CommandPolicy.check}. */
export interface CommandCheckOptions {
  /**
   * The directory the command will run in: relative to the workspace root, or absolute
   * inside it. Relative path arguments, `$PWD` and `~+` are resolved against it the way
   * bash resolves them (symlinks in it and `..` after them included). Defaults to the root.
   * A directory outside the workspace, or one that does not exist or cannot be resolved,
   * never gives `allow`.
   */
  readonly cwd?: string;
}

/** Classifies shell commands a model wants to run. */
export interface CommandPolicy {
  /**
   * Classifies `command` as it would run in `options.cwd` (the workspace root by
   * default); never throws for any input string.
   *
   * @example
   * await policy.check("cat x/etc/passwd", { cwd: "sub" }); // block when sub/x -> /
   */
  check(command: string, options?: CommandCheckOptions): Promise<CommandDecision>;
}
