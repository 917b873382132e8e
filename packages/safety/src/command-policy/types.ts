import type { PathGuard } from "../path-guard.js";

/**
 * What happens to a command, decided in one place:
 * - `direct`: provably read-only (allowlisted readers with their argument specs, read-only
 *   git, pipelines and lists of such, every path inside the workspace and not secret): it
 *   runs without asking, even where there is no sandbox.
 * - `sandbox`: everything else that needs nothing the sandbox withholds (builds, tests,
 *   scripts, interpreters): it runs confined, without asking, where a sandbox works.
 * - `escalate`: it needs what the sandbox withholds (see {@link EscalationKind}): a person
 *   decides; unattended it is refused with the reason.
 * - `forbidden`: a forbidden rule or the user's deny list matched: it never runs.
 */
export type CommandOutcome = "direct" | "sandbox" | "escalate" | "forbidden";

/**
 * What an escalating command needs:
 * - `network`: a program or subcommand that talks to the network;
 * - `outside`: it names a path outside the workspace (and outside the system directories
 *   the sandbox shows);
 * - `secret`: it reads a secret-looking file (or a hard link, which may be one outside);
 * - `protected`: it writes a protected path (git internals, files that make another
 *   program run code);
 * - `git-write`: a git command that writes `.git`;
 * - `unanalysed`: the text could not be analysed (parse error, deadline, a cap), so what
 *   it does is unknown.
 */
export type EscalationKind =
  "network" | "outside" | "secret" | "protected" | "git-write" | "unanalysed";

/** One thing an escalating command needs, with the sentence that explains it. */
export interface Escalation {
  readonly kind: EscalationKind;
  readonly reason: string;
}

/** What the command policy decided about one command, and why. */
export interface CommandDecision {
  readonly outcome: CommandOutcome;
  /** One sentence a person or model can act on, naming the program, flag or path. */
  readonly reason: string;
  /** Programs found, normalised (unquoted, basename, wrappers unwrapped), in order of appearance. */
  readonly programs: readonly string[];
  /** Everything that escalates, when the outcome is `escalate` (else empty). */
  readonly escalations: readonly Escalation[];
}

/** Options of {@link createCommandPolicy}. */
export interface CommandPolicyOptions {
  /** The workspace root and the checks every path argument must pass. */
  readonly pathGuard: PathGuard;
  /** Read-only programs that may run directly; defaults to {@link DEFAULT_ALLOWLIST}. */
  readonly allowlist?: readonly string[];
  /**
   * The user's own refusals, each a program with optional words that follow it: `docker`,
   * `git push`, `npm publish`. A simple command matches when its program is the entry's
   * first word and the entry's other words appear among its arguments in order (so
   * `git -C . push` matches `git push`). Every simple command is checked, inside wrappers
   * and `sh -c` scripts too; a match is `forbidden`.
   */
  readonly denylist?: readonly string[];
  /** Most simple commands one input may hold; over the cap it escalates. Default 64. */
  readonly maxSegments?: number;
  /**
   * A parse that takes longer than this fails closed (`escalate`, `unanalysed`). Counted
   * in CPU time of the calling thread where the runtime reports it. Default 50 ms.
   */
  readonly parseTimeoutMs?: number;
}

/** Options of one {@link CommandPolicy.check}. */
export interface CommandCheckOptions {
  /**
   * The directory the command will run in: relative to the workspace root, or absolute
   * inside it. Defaults to the root. A directory outside the workspace, or one that does
   * not exist or cannot be resolved, escalates.
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
   * await policy.check("git status && rg TODO src"); // { outcome: "direct", … }
   * await policy.check("npm test");                  // { outcome: "sandbox", … }
   * await policy.check("curl https://example.com");  // { outcome: "escalate", escalations: [{ kind: "network", … }] }
   */
  check(command: string, options?: CommandCheckOptions): Promise<CommandDecision>;
}
