import { lstat, readlink, realpath } from "node:fs/promises";
import type { EtcMasks } from "./etc-masks.js";
import { sharedMemoryBytes, type SandboxLimits } from "./sandbox-limits.js";

/** The system directories a command needs: programs and libraries. */
export const SYSTEM_DIRECTORIES: readonly string[] = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
];

/** A system directory as it is on this machine: a directory, or a link (into `/usr`). */
export interface SystemEntry {
  readonly path: string;
  /** The link's text when the entry is a symlink (`usr/bin` for `/bin` on merged-/usr systems). */
  readonly link?: string;
}

/** Looks up which of {@link SYSTEM_DIRECTORIES} exist, and which are links. */
export async function findSystemEntries(
  candidates: readonly string[] = SYSTEM_DIRECTORIES,
): Promise<SystemEntry[]> {
  const entries: SystemEntry[] = [];
  for (const candidate of candidates) {
    try {
      const stats = await lstat(candidate);
      if (stats.isSymbolicLink())
        entries.push({ path: candidate, link: await readlink(candidate) });
      else if (stats.isDirectory()) entries.push({ path: candidate });
    } catch {
      // not on this machine
    }
  }
  return entries;
}

/**
 * Where `/etc/resolv.conf` really lives when it is a link out of `/etc` (systemd-resolved
 * keeps it under `/run`), so that name resolution works when the network is allowed.
 */
export async function findResolvConf(file = "/etc/resolv.conf"): Promise<string | undefined> {
  try {
    if (!(await lstat(file)).isSymbolicLink()) return undefined;
    const real = await realpath(file);
    return real.startsWith("/etc/") ? undefined : real;
  } catch {
    return undefined;
  }
}

/** Everything bubblewrap needs to know to build one command's view of the machine. */
export interface SandboxView {
  /** The workspace (an overlay at this point), bound writable at its real path. */
  readonly workspace: string;
  readonly cwd: string;
  /** An empty in-memory directory that HOME points at. */
  readonly home: string;
  readonly network: boolean;
  /** Existing directories and files inside the workspace to bind read-only over themselves. */
  readonly readOnlyPaths: readonly string[];
  /** Host paths outside the workspace to show read-only (configured by the user). */
  readonly extraReadOnlyPaths: readonly string[];
  readonly systemEntries: readonly SystemEntry[];
  readonly etcMasks: EtcMasks;
  /** An empty file and an empty directory, both mode 000, laid over what `etcMasks` hides. */
  readonly maskFile: string;
  readonly maskDirectory: string;
  /** Secret-looking entries of the workspace, and the empty readable file and directory laid over them. */
  readonly workspaceSecrets?: {
    readonly files: readonly string[];
    readonly directories: readonly string[];
  };
  readonly secretFile?: string;
  readonly secretDirectory?: string;
  /** The real `/etc/resolv.conf` when it lives outside `/etc`; bound only with the network. */
  readonly resolvConf?: string;
  readonly limits: SandboxLimits;
  /** Descriptor numbers in the child: the seccomp program, and where bwrap reports its child. */
  readonly seccompFd: number;
  readonly infoFd: number;
}

/**
 * The bubblewrap arguments (without the program) for one command. Order matters: later
 * mounts cover earlier ones, so system directories come first, then `/etc`'s masks, the
 * in-memory directories, extra read-only paths, the workspace, its protected entries, the
 * masks over its secret-looking entries (after the protected entries, which may hold some,
 * such as `.git/config`), and last the root is made read-only.
 */
export function buildBwrapArguments(view: SandboxView): string[] {
  const args = [
    // Every namespace: user (so the command holds no capability of the outside and its
    // process count is its own), pid, ipc, uts, cgroup and, unless allowed, network.
    "--unshare-all",
    "--unshare-user",
    ...(view.network ? ["--share-net"] : []),
    "--disable-userns",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--seccomp",
    String(view.seccompFd),
    "--info-fd",
    String(view.infoFd),
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    // The command's user maps to the caller's: when that is root, sysctls would take its
    // writes (core_pattern runs a program as root on the host). bwrap only covers them when
    // the directory itself is writable, so cover them here.
    "--ro-bind",
    "/proc/sys",
    "/proc/sys",
    "--ro-bind-try",
    "/proc/sysrq-trigger",
    "/proc/sysrq-trigger",
  ];
  for (const entry of view.systemEntries) {
    if (entry.link !== undefined) args.push("--symlink", entry.link, entry.path);
    else args.push("--ro-bind", entry.path, entry.path);
  }
  args.push("--ro-bind", "/etc", "/etc");
  for (const file of view.etcMasks.files) args.push("--ro-bind", view.maskFile, file);
  for (const directory of view.etcMasks.directories) {
    args.push("--ro-bind", view.maskDirectory, directory);
  }
  const size = String(view.limits.tmpBytes);
  args.push(
    "--size",
    size,
    "--tmpfs",
    "/tmp",
    "--size",
    size,
    "--tmpfs",
    "/var/tmp",
    "--size",
    size,
    "--tmpfs",
    view.home,
    "--size",
    String(sharedMemoryBytes(view.limits)),
    "--tmpfs",
    "/dev/shm",
    // /dev itself is an in-memory filesystem without a size: nothing is created there.
    "--remount-ro",
    "/dev",
  );
  for (const extra of view.extraReadOnlyPaths) args.push("--ro-bind", extra, extra);
  args.push("--bind", view.workspace, view.workspace);
  for (const readOnly of view.readOnlyPaths) args.push("--ro-bind", readOnly, readOnly);
  if (view.workspaceSecrets !== undefined) {
    if (view.secretFile === undefined || view.secretDirectory === undefined) {
      throw new TypeError("masking the workspace's secrets needs a secret file and directory");
    }
    for (const directory of view.workspaceSecrets.directories) {
      args.push("--ro-bind", view.secretDirectory, directory);
    }
    for (const file of view.workspaceSecrets.files) args.push("--ro-bind", view.secretFile, file);
  }
  if (view.network && view.resolvConf !== undefined) {
    args.push("--ro-bind-try", view.resolvConf, view.resolvConf);
  }
  args.push("--remount-ro", "/", "--chdir", view.cwd);
  return args;
}
