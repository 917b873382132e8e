/**
 * Resource limits of one sandboxed command, so that a runaway or hostile command (a fork
 * bomb, a memory or disk filler) dies inside the sandbox instead of taking the machine.
 */
export interface SandboxLimits {
  /**
   * Processes and threads the sandbox may hold at once (bubblewrap's init included).
   * `RLIMIT_NPROC`, which counts only the sandbox's own processes because each command
   * gets its own user namespace; when XZatoma runs as root (whom that limit does not
   * bind), a pids cgroup. Default 1024.
   */
  readonly processes: number;
  /**
   * Writable private memory per process (`RLIMIT_DATA`), in bytes. Address space that is
   * only reserved (Node, the JVM and Go reserve gigabytes) does not count. Default 8 GiB.
   */
  readonly memoryBytes: number;
  /**
   * Memory of the whole sandbox, every process and its in-memory `/tmp` together, in bytes:
   * a memory cgroup (`memory.max` on cgroup v2, without swap; `memory.limit_in_bytes` and
   * `memory.memsw.limit_in_bytes` on v1). Past it the kernel kills the command's processes
   * (all of them on v2) and the outcome's `limitsReached` says so. Only where XZatoma may
   * make cgroups, in practice as root; an ordinary user's command has `memoryBytes` per
   * process instead. Default 8 GiB.
   */
  readonly totalMemoryBytes: number;
  /**
   * Size of the changes one command may hand back: the bytes of the files and links it
   * wrote, as the overlay's upper directory holds them. A change set past it is discarded
   * whole, with a reason saying so, and the workspace stays as it was. Checked when the
   * command has ended, before anything is applied; while it runs, its writes are bounded by
   * `fileSizeBytes` per file and the disk of the scratch directory. Default 8 GiB.
   */
  readonly changesBytes: number;
  /** Largest file a process may write (`RLIMIT_FSIZE`), in bytes. Default 4 GiB. */
  readonly fileSizeBytes: number;
  /** CPU time per process (`RLIMIT_CPU`), in seconds. Default 900. */
  readonly cpuSeconds: number;
  /**
   * Size of each in-memory filesystem: `/tmp`, `/var/tmp` and the home directory (their
   * contents live in RAM and vanish with the command); `/dev/shm` gets at most 64 MiB of
   * it. In bytes. Default 1 GiB.
   */
  readonly tmpBytes: number;
}

/** The limits a command gets unless the sandbox or the run says otherwise. */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = Object.freeze({
  processes: 1024,
  memoryBytes: 8 * 1024 ** 3,
  totalMemoryBytes: 8 * 1024 ** 3,
  changesBytes: 8 * 1024 ** 3,
  fileSizeBytes: 4 * 1024 ** 3,
  cpuSeconds: 900,
  tmpBytes: 1024 ** 3,
});

const SHM_BYTES = 64 * 1024 ** 2;

/** Merges limits over the defaults and checks that each is a positive whole number. */
export function resolveLimits(...layers: (Partial<SandboxLimits> | undefined)[]): SandboxLimits {
  const merged: Record<string, number> = { ...DEFAULT_SANDBOX_LIMITS };
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer ?? {})) {
      if (value === undefined) continue;
      if (!(name in DEFAULT_SANDBOX_LIMITS)) throw new TypeError(`unknown sandbox limit ${name}`);
      if (!Number.isSafeInteger(value) || value <= 0) {
        throw new TypeError(`sandbox limit ${name} must be a positive integer, got ${value}`);
      }
      merged[name] = value;
    }
  }
  return merged as unknown as SandboxLimits;
}

/** Size of the sandbox's `/dev/shm`. */
export function sharedMemoryBytes(limits: SandboxLimits): number {
  return Math.min(SHM_BYTES, limits.tmpBytes);
}

/**
 * The limits as the overlay layer's shell script takes them (see overlay-mount.ts): the
 * process count, data in KiB, file size in 512-byte blocks (the unit of `ulimit -f` in
 * every POSIX shell), CPU seconds.
 */
export function shellLimitArguments(limits: SandboxLimits): string[] {
  return [
    // bwrap's own process, outside the sandbox's pid namespace, counts too.
    String(limits.processes + 1),
    String(Math.max(1, Math.floor(limits.memoryBytes / 1024))),
    String(Math.max(1, Math.floor(limits.fileSizeBytes / 512))),
    String(limits.cpuSeconds),
  ];
}
