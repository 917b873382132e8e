import os from "node:os";
import {
  confineRun,
  findSandboxTools,
  loadMachineView,
  type MachineView,
  type SandboxTools,
} from "./confined-run.js";
import type { SandboxJudge, SandboxOutcome } from "./apply-changes.js";
import type { EgressReport, SandboxEgress } from "./egress/egress-report.js";
import type { SandboxLimits } from "./sandbox-limits.js";
import { probeSandbox } from "./sandbox-probe.js";
import type { SecretScanBounds } from "./workspace-secrets.js";

/**
 * How XZatoma confines terminal commands. With bubblewrap: the command sees the system's
 * programs and libraries, a filtered `/etc`, an empty home and `/tmp`, and the workspace;
 * its writes land in an overlay and reach the workspace only through `finish()`, each
 * judged; no network unless allowed; no capabilities, no new namespaces, no Unix sockets,
 * limited processes and memory. Without it (`kind: "none"`), commands run as they are.
 */
export interface Sandbox {
  /**
   * `bubblewrap` while the sandbox is usable; `none` when it is turned off, bubblewrap or
   * a helper is missing, or the one-time start-up check failed (see {@link Sandbox.probe}).
   */
  readonly kind: "bubblewrap" | "none";
  /**
   * Why there is no sandbox, when there is none: what is missing or what failed. With a
   * sandbox, what it cannot do on this machine, if anything (root without a pids cgroup).
   */
  readonly warning?: string;
  /**
   * Runs the one-time start-up check now (a confined `true` that writes one file), so that
   * `kind` and `warning` are final. The first {@link Sandbox.prepare} runs it otherwise.
   */
  probe(): Promise<void>;
  /**
   * Prepares `argv` to run confined. Spawn `file` with `args`, the `env` entries added to
   * the command's environment, `stdio` as given (its descriptors 3 and 4 carry the seccomp
   * program and bubblewrap's report) and a process group of its own; after it exits, or
   * was killed, call `finish()` exactly once. Without a sandbox, `argv` unchanged.
   *
   * The workspace's secret-looking files (the classifier of `isSecretPath`, and git's
   * configuration in every git directory) are searched for first and masked: the command
   * sees them empty and cannot change them. Throws `SandboxRefusedError` (code
   * `SANDBOX_REFUSED`), with a message that says why, when that search cannot finish
   * within its bounds or fails: no command runs with a partial mask.
   */
  prepare(argv: readonly string[], options: SandboxRunOptions): Promise<PreparedRun>;
}

/** What one confined command may see and change. */
export interface SandboxRunOptions {
  /** The workspace root: the only place whose changes can outlive the command. */
  readonly workspace: string;
  /** The working directory, inside the workspace. */
  readonly cwd: string;
  /**
   * HOME inside the sandbox: an empty in-memory directory at this absolute path (not in
   * the workspace or a system directory). Default `/home/sandbox`.
   */
  readonly home?: string;
  /** Allow network access (name resolution included). Default false. */
  readonly network?: boolean;
  /**
   * Network through XZatoma's egress proxy instead: the command keeps its own network
   * namespace (loopback only), its proxy variables point at a forwarder inside it, and
   * the proxy outside admits only hosts `allowHost` accepts, at addresses the URL guard
   * allows. Not with `network: true`. Has no effect without a sandbox (`kind: "none"`).
   */
  readonly egress?: SandboxEgress;
  /**
   * Existing files and directories inside the workspace that the command may not write,
   * rename or delete (it fails at once with EROFS or EBUSY). Paths outside the workspace
   * are ignored: outside it everything is read-only or invisible already.
   */
  readonly readOnlyPaths?: readonly string[];
  /**
   * A person approved a command that must write `.git`: `.git` is then left out of
   * `readOnlyPaths` by the caller and `judge` gets `writableGit: true`, and git's
   * configuration files (masked otherwise, for the credentials they may carry) are shown,
   * because git needs them to write a repository. Default false.
   */
  readonly writableGit?: boolean;
  /** Decides which changes reach the workspace. Default: every change is applied. */
  readonly judge?: SandboxJudge;
  /** Overrides of the sandbox's limits for this command. */
  readonly limits?: Partial<SandboxLimits>;
}

/** A command ready to spawn, and what to do once it ended. */
export interface PreparedRun {
  readonly file: string;
  readonly args: string[];
  /** Environment entries the command must get (HOME). */
  readonly env: Record<string, string>;
  /** The child's stdio; entries past 2 are descriptors the sandbox needs inherited. */
  readonly stdio: ("ignore" | "pipe" | number)[];
  /**
   * With `egress`: the hosts the proxy refused and reached, filled while the command runs
   * and complete once `finish()` resolved. Absent when the run had no egress proxy.
   */
  readonly egress?: EgressReport;
  /**
   * After the command ended: waits until nothing of it runs, applies its judged changes to
   * the workspace, removes the run's private directory. Idempotent; never rejects.
   */
  finish(): Promise<SandboxOutcome>;
}

/** Options of {@link createSandbox}. */
export interface SandboxOptions {
  /**
   * Where bwrap is: an absolute path, the only place looked at (a relative path or one with
   * no bwrap means no sandbox). Default: `/usr/bin/bwrap`, `/usr/local/bin/bwrap`, then PATH.
   */
  readonly bwrapPath?: string;
  /** Turn the sandbox off (only provably read-only commands then run without a person). */
  readonly disabled?: boolean;
  /** Where PATH is read from to find bwrap, unshare and mount. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Directory for each command's private overlay directories (mode 0700, removed after the
   * command). Not inside a workspace. Default: the system's temporary directory.
   */
  readonly scratchDirectory?: string;
  /** Host paths outside the workspace to show read-only, such as `/opt` or a toolchain. */
  readonly extraReadOnlyPaths?: readonly string[];
  /** Limits of every command; see {@link DEFAULT_SANDBOX_LIMITS}. */
  readonly limits?: Partial<SandboxLimits>;
  /**
   * How far the search for the workspace's secret-looking files may go before `prepare`
   * refuses. Default: 100,000 entries, 5 s, 1,000 masks (`DEFAULT_SECRET_SCAN`).
   */
  readonly secretScan?: Partial<SecretScanBounds>;
}

const TURNED_OFF =
  "The sandbox is turned off, so only provably read-only terminal commands run without a person's yes.";

function unconfined(argv: readonly string[]): PreparedRun {
  const [file, ...args] = argv;
  if (file === undefined) throw new TypeError("an empty command cannot run");
  const outcome: SandboxOutcome = { applied: [], discarded: [] };
  return {
    file,
    args,
    env: {},
    stdio: ["ignore", "pipe", "pipe"],
    finish: () => Promise.resolve(outcome),
  };
}

/**
 * Creates XZatoma's sandbox. Nothing runs until the first `prepare` (or `probe`), which
 * checks once that user namespaces, overlays and bubblewrap work here; where they do not,
 * the sandbox becomes `none` and `warning` says what failed. Needs bubblewrap
 * (`apt-get install bubblewrap`) and util-linux's `unshare` and `mount`.
 *
 * @example
 * const sandbox = createSandbox();
 * const run = await sandbox.prepare(["/bin/bash", "-c", "make"], { workspace, cwd: workspace });
 * const child = spawn(run.file, run.args, { env: { ...env, ...run.env }, stdio: run.stdio, detached: true });
 * await once(child, "exit");
 * const { applied, discarded } = await run.finish();
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  if (options.disabled) {
    return {
      kind: "none",
      warning: TURNED_OFF,
      probe: () => Promise.resolve(),
      prepare: async (argv) => unconfined(argv),
    };
  }
  const found = findSandboxTools(options);
  if (typeof found === "string") {
    return {
      kind: "none",
      warning: found,
      probe: () => Promise.resolve(),
      prepare: async (argv) => unconfined(argv),
    };
  }
  const tools: SandboxTools = found;
  let failure: string | undefined;
  let shortfall: string | undefined;
  let ready: Promise<MachineView | undefined> | undefined;
  const setUp = (): Promise<MachineView | undefined> => {
    ready ??= (async () => {
      const machine = await loadMachineView(tools, options, os.tmpdir());
      failure = await probeSandbox(machine);
      if (failure !== undefined) return undefined;
      shortfall = machine.shortfall;
      return machine;
    })();
    return ready;
  };
  return {
    get kind() {
      return failure === undefined ? "bubblewrap" : "none";
    },
    get warning() {
      return failure ?? shortfall;
    },
    async probe() {
      await setUp();
    },
    async prepare(argv, run) {
      const machine = await setUp();
      if (machine === undefined) return unconfined(argv);
      return confineRun(machine, argv, run);
    },
  };
}
