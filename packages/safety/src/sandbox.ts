import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";

/** How terminal commands are confined. */
export interface Sandbox {
  /** `bubblewrap` when bwrap is available, else `none` (the command policy alone). */
  readonly kind: "bubblewrap" | "none";
  /** Why there is no sandbox, when there is none. */
  readonly warning?: string;
  /**
   * The program and arguments that run `argv` confined: the workspace writable, the rest
   * of the filesystem read-only, protected paths read-only, a private /tmp, no network
   * unless allowed. Without a sandbox, `argv` unchanged.
   */
  wrap(argv: readonly string[], options: SandboxRunOptions): { file: string; args: string[] };
}

/** What one confined run may touch. */
export interface SandboxRunOptions {
  /** The workspace root (real path): the only writable place besides a private /tmp. */
  readonly workspace: string;
  /** The working directory inside the workspace. */
  readonly cwd: string;
  /** Existing paths inside the workspace that must stay read-only (git hooks, config...). */
  readonly readOnlyPaths?: readonly string[];
  /** Allow network access. Default false. */
  readonly network?: boolean;
}

/** Options of {@link createSandbox}. */
export interface SandboxOptions {
  /** Where to look for bwrap. Default: `/usr/bin/bwrap`, `/usr/local/bin/bwrap`, then PATH. */
  readonly bwrapPath?: string;
  /** Turn the sandbox off (the policy alone). */
  readonly disabled?: boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

function findBwrap(options: SandboxOptions): string | undefined {
  const candidates = options.bwrapPath
    ? [options.bwrapPath]
    : [
        "/usr/bin/bwrap",
        "/usr/local/bin/bwrap",
        ...(options.env?.["PATH"] ?? "")
          .split(":")
          .filter(Boolean)
          .map((directory) => path.join(directory, "bwrap")),
      ];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Detects bubblewrap and returns a sandbox that confines commands with it. Where bwrap is
 * missing the sandbox is `none` with a warning to show once; the command policy then
 * stands alone. Install it with `apt-get install bubblewrap`.
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  if (options.disabled) {
    return {
      kind: "none",
      warning: "The sandbox is turned off; only the command policy protects this machine.",
      wrap: (argv) => passthrough(argv),
    };
  }
  const bwrap = findBwrap(options);
  if (!bwrap) {
    return {
      kind: "none",
      warning:
        "bubblewrap (bwrap) is not installed, so terminal commands run without a sandbox, guarded by the command policy alone. Install it with 'apt-get install bubblewrap'.",
      wrap: (argv) => passthrough(argv),
    };
  }
  return {
    kind: "bubblewrap",
    wrap(argv, run) {
      const args = [
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--tmpfs",
        "/tmp",
        "--bind",
        run.workspace,
        run.workspace,
      ];
      for (const readOnly of run.readOnlyPaths ?? []) {
        if (existsSync(readOnly)) args.push("--ro-bind", readOnly, readOnly);
      }
      if (!run.network) args.push("--unshare-net");
      args.push(
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--die-with-parent",
        "--new-session",
      );
      args.push("--chdir", run.cwd, "--", ...argv);
      return { file: bwrap, args };
    },
  };
}

function passthrough(argv: readonly string[]): { file: string; args: string[] } {
  const [file, ...args] = argv;
  if (file === undefined) throw new TypeError("an empty command cannot run");
  return { file, args };
}
