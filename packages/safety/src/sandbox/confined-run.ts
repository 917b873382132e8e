import { chmod, chown, lstat, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { applyChanges, type SandboxJudge, type SandboxOutcome } from "./apply-changes.js";
import {
  buildBwrapArguments,
  findResolvConf,
  findSystemEntries,
  type SystemEntry,
} from "./bwrap-arguments.js";
import type { EgressRun } from "./egress/egress-run.js";
import { findEtcMasks, type EtcMasks } from "./etc-masks.js";
import { findProgram } from "./find-program.js";
import {
  createRunCgroup,
  findCgroupParents,
  type CgroupParents,
  type RunCgroup,
} from "./process-cgroup.js";
import { findReplacedDirectories } from "./replaced-directories.js";
import { mountThenExec, overlayOptions, type NamespaceTools } from "./overlay-mount.js";
import {
  createRunDirectory,
  removeRunDirectory,
  removeRunDirectorySync,
  type RunDirectory,
} from "./run-directory.js";
import { readSandboxInit, waitForSandboxExit } from "./sandbox-exit.js";
import { resolveLimits, shellLimitArguments, type SandboxLimits } from "./sandbox-limits.js";
import type { PreparedRun, SandboxOptions, SandboxRunOptions } from "./sandbox.js";
import { buildSeccompFilter } from "./seccomp-filter.js";
import { ChangesTooLargeError, formatBytes, readUpperTree } from "./upper-tree.js";
import {
  createMaskTest,
  DEFAULT_SECRET_SCAN,
  findWorkspaceSecrets,
  type SecretScanBounds,
  type WorkspaceSecrets,
} from "./workspace-secrets.js";

/** The host programs the sandbox runs. */
export interface SandboxTools extends NamespaceTools {
  readonly bwrap: string;
}

/** What the sandbox learns about the machine once, before the first command. */
export interface MachineView {
  readonly tools: SandboxTools;
  readonly systemEntries: readonly SystemEntry[];
  readonly etcMasks: EtcMasks;
  readonly resolvConf?: string;
  readonly seccomp: Buffer;
  readonly scratchCandidates: readonly string[];
  readonly extraReadOnlyPaths: readonly string[];
  readonly limits?: Partial<SandboxLimits>;
  /** How far the search for the workspace's secret-looking files may go. */
  readonly secretScan: SecretScanBounds;
  /** Where root's commands get a pids and a memory cgroup each (see process-cgroup.ts). */
  readonly cgroupParents: CgroupParents;
  /** What the sandbox cannot do on this machine although it runs. */
  readonly shortfall?: string;
  /** Runs not finished yet, cleaned up at the latest when the process exits. */
  readonly pending: Set<{ readonly directory: string; readonly cgroup?: RunCgroup }>;
}

const DEFAULT_HOME = "/home/sandbox";
/** How long finish() waits for the rest of a killed command to die. */
const EXIT_WAIT_MS = 15_000;
const PLACES_HOME_MAY_NOT_BE = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/etc",
  "/proc",
  "/dev",
  "/tmp",
  "/var/tmp",
];

/** Finds bwrap and its helpers, or says which is missing. */
export function findSandboxTools(options: SandboxOptions): SandboxTools | string {
  const searchPath = options.env?.["PATH"];
  // A given path is the only place looked at, and only when it is absolute.
  const given = options.bwrapPath;
  const bwrap =
    given === undefined
      ? findProgram("bwrap", ["/usr/bin/bwrap", "/usr/local/bin/bwrap"], searchPath)
      : path.isAbsolute(given)
        ? findProgram("bwrap", [given], undefined)
        : undefined;
  if (bwrap === undefined) {
    const where = given === undefined ? "is not installed" : `is not at ${JSON.stringify(given)}`;
    return `bubblewrap (bwrap) ${where}, so terminal commands cannot run in the sandbox and only provably read-only ones run without a person's yes. Install it with 'apt-get install bubblewrap'.`;
  }
  const unshare = findProgram("unshare", ["/usr/bin/unshare", "/bin/unshare"], searchPath);
  const mount = findProgram("mount", ["/usr/bin/mount", "/bin/mount"], searchPath);
  const shell = findProgram("sh", ["/bin/sh", "/usr/bin/sh"], undefined);
  const missing = [
    unshare ? undefined : "unshare",
    mount ? undefined : "mount",
    shell ? undefined : "sh",
  ].filter(Boolean);
  if (!unshare || !mount || !shell) {
    return `The sandbox needs ${missing.join(", ")} (from util-linux), which this machine lacks, so terminal commands cannot run in it and only provably read-only ones run without a person's yes.`;
  }
  const unprivileged = process.getuid?.() !== 0;
  return { bwrap, unshare, mount, shell, unprivileged };
}

/** Looks at the machine once: system directories, `/etc`, extra paths. */
export async function loadMachineView(
  tools: SandboxTools,
  options: SandboxOptions,
  temporaryDirectory: string,
): Promise<MachineView> {
  const [systemEntries, etcMasks, resolvConf, cgroupParents] = await Promise.all([
    findSystemEntries(),
    findEtcMasks(),
    findResolvConf(),
    tools.unprivileged ? Promise.resolve<CgroupParents>({}) : findCgroupParents(),
  ]);
  const extraReadOnlyPaths: string[] = [];
  for (const extra of options.extraReadOnlyPaths ?? []) {
    const real = await realpath(extra).catch(() => undefined);
    if (real !== undefined && real !== "/") extraReadOnlyPaths.push(real);
  }
  // Checked up front so a typo fails at the first command, not on an odd one.
  resolveLimits(options.limits);
  const view: MachineView = {
    tools,
    systemEntries,
    etcMasks,
    seccomp: buildSeccompFilter(),
    scratchCandidates: [options.scratchDirectory ?? temporaryDirectory, "/var/tmp", "/dev/shm"],
    extraReadOnlyPaths,
    secretScan: { ...DEFAULT_SECRET_SCAN, ...options.secretScan },
    pending: new Set(),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(resolvConf ? { resolvConf } : {}),
    cgroupParents,
    ...(!tools.unprivileged && !cgroupParents.pids
      ? {
          shortfall:
            "The sandbox cannot cap how many processes a command starts: XZatoma runs as root, whose processes the kernel's process limit ignores, and no writable pids cgroup was found. Run XZatoma as an ordinary user to get that limit.",
        }
      : !tools.unprivileged && !cgroupParents.memory
        ? {
            shortfall:
              "The sandbox cannot cap the memory of a command's processes together: no writable memory cgroup was found, so each process is limited on its own.",
          }
        : {}),
  };
  process.on("exit", () => {
    for (const run of view.pending) {
      removeRunDirectorySync(run.directory);
      run.cgroup?.removeSync();
    }
  });
  return view;
}

function isWithin(parent: string, candidate: string): boolean {
  const relative = path.relative(parent, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** The protected entries to bind read-only: existing, inside the workspace, reached without links. */
async function bindableReadOnlyPaths(
  workspace: string,
  requested: readonly string[],
): Promise<string[]> {
  const accepted: string[] = [];
  for (const candidate of requested) {
    const absolute = path.resolve(candidate);
    const relative = path.relative(workspace, absolute);
    if (relative === "" || !isWithin(workspace, absolute)) continue;
    let current = workspace;
    let usable = true;
    for (const part of relative.split(path.sep)) {
      current = path.join(current, part);
      const stats = await lstat(current).catch(() => undefined);
      if (stats === undefined || stats.isSymbolicLink()) {
        usable = false;
        break;
      }
    }
    // A missing or linked entry cannot be bound; the judge refuses changes to it instead.
    if (usable && !accepted.includes(absolute)) accepted.push(absolute);
  }
  return accepted;
}

function checkHome(home: string, workspace: string): string {
  if (!path.isAbsolute(home)) throw new TypeError(`the sandbox's home must be absolute: ${home}`);
  const normal = path.resolve(home);
  if (normal === "/" || isWithin(workspace, normal)) {
    throw new TypeError(`the sandbox's home ${normal} may not be / or inside the workspace`);
  }
  if (PLACES_HOME_MAY_NOT_BE.some((place) => isWithin(place, normal))) {
    throw new TypeError(`the sandbox's home ${normal} may not be inside a system directory`);
  }
  return normal;
}

async function scratchFor(machine: MachineView, workspace: string): Promise<string> {
  for (const candidate of machine.scratchCandidates) {
    const real = await realpath(candidate).catch(() => undefined);
    if (real !== undefined && !isWithin(workspace, real)) return real;
  }
  throw new Error(
    `every scratch directory of the sandbox is inside the workspace ${workspace}; set scratchDirectory`,
  );
}

/** Builds the confined command and its finish step (see `Sandbox.prepare`). */
export async function confineRun(
  machine: MachineView,
  argv: readonly string[],
  run: SandboxRunOptions,
): Promise<PreparedRun> {
  if (argv.length === 0) throw new TypeError("an empty command cannot run");
  const workspace = await realpath(run.workspace);
  const workspaceStats = await stat(workspace);
  if (!workspaceStats.isDirectory() || workspace === "/") {
    throw new TypeError(`the sandbox's workspace must be a directory other than /: ${workspace}`);
  }
  const cwd = await realpath(run.cwd);
  if (!isWithin(workspace, cwd))
    throw new TypeError(`cwd ${cwd} is outside the workspace ${workspace}`);
  const home = checkHome(run.home ?? DEFAULT_HOME, workspace);
  if (run.egress !== undefined && run.network === true) {
    throw new TypeError("a sandboxed command gets either the whole network or egress, not both");
  }
  const limits = resolveLimits(machine.limits, run.limits);
  const readOnlyPaths = await bindableReadOnlyPaths(workspace, run.readOnlyPaths ?? []);
  // Before anything is made for the run: a workspace whose secrets cannot all be masked
  // gets no command at all (SandboxRefusedError).
  const secrets = await findWorkspaceSecrets(workspace, {
    bounds: machine.secretScan,
    visibleRoots: machine.extraReadOnlyPaths,
    showGitConfig: run.writableGit === true,
  });
  const directory = await createRunDirectory(await scratchFor(machine, workspace), machine.seccomp);
  const pending: { directory: string; cgroup?: RunCgroup } = { directory: directory.root };
  machine.pending.add(pending);
  let egress: EgressRun | undefined;
  try {
    if (machine.cgroupParents.pids || machine.cgroupParents.memory) {
      pending.cgroup = await createRunCgroup(machine.cgroupParents, {
        // bwrap's own process, outside the sandbox's pid namespace, counts there too.
        maxTasks: limits.processes + 1,
        memoryBytes: limits.totalMemoryBytes,
      });
    }
    // The overlay's root shows the upper directory's owner and mode: make them the workspace's.
    await chmod(directory.upper, workspaceStats.mode & 0o7777);
    if (!machine.tools.unprivileged) {
      await chown(directory.upper, workspaceStats.uid, workspaceStats.gid);
    }
    if (run.egress !== undefined) {
      // Loaded on the first command that asks for egress: most never do.
      const { startEgress } = await import("./egress/egress-run.js");
      egress = await startEgress(run.egress, directory.root);
    }
    const seccompFd = 3;
    const infoFd = 4;
    const bwrapArguments = buildBwrapArguments({
      workspace,
      cwd,
      home,
      network: run.network ?? false,
      readOnlyPaths,
      extraReadOnlyPaths: [...machine.extraReadOnlyPaths, ...(egress ? [egress.node] : [])].filter(
        (extra) => !isWithin(workspace, extra),
      ),
      systemEntries: machine.systemEntries,
      etcMasks: machine.etcMasks,
      maskFile: directory.maskFile,
      maskDirectory: directory.maskDirectory,
      workspaceSecrets: secrets,
      secretFile: directory.secretFile,
      secretDirectory: directory.secretDirectory,
      limits,
      seccompFd,
      infoFd,
      ...(machine.resolvConf ? { resolvConf: machine.resolvConf } : {}),
    });
    const options = overlayOptions(
      { lower: [workspace], upper: directory.upper, work: directory.work },
      machine.tools.unprivileged,
    );
    const stdio: PreparedRun["stdio"] = [
      "ignore",
      "pipe",
      "pipe",
      directory.seccompFd,
      directory.infoFd,
    ];
    // The egress forwarder's pipes come last; it runs the command as its child.
    const command = egress ? egress.wrap(argv, [stdio.length, stdio.length + 1]) : argv;
    if (egress) stdio.push(...egress.childDescriptors);
    const args = mountThenExec(
      machine.tools,
      {
        options,
        target: workspace,
        limits: shellLimitArguments(limits),
        ...(pending.cgroup ? { cgroupJoinFiles: pending.cgroup.joinFiles } : {}),
      },
      [machine.tools.bwrap, ...bwrapArguments, "--", ...command],
    );
    let finished: Promise<SandboxOutcome> | undefined;
    return {
      file: machine.tools.unshare,
      args,
      env: { HOME: home },
      stdio,
      ...(egress ? { egress: egress.report } : {}),
      finish() {
        egress?.stop();
        finished ??= finishRun(machine, directory, pending, workspace, run, secrets, limits);
        return finished;
      },
    };
  } catch (error) {
    egress?.stop();
    directory.closeDescriptors();
    machine.pending.delete(pending);
    await removeRunDirectory(directory.root);
    await pending.cgroup?.remove().catch(() => undefined);
    throw error;
  }
}

const acceptEverything: SandboxJudge = () => undefined;

/** The run's judge, behind a refusal of every change to a masked path. */
function judgeWithMasks(
  judge: SandboxJudge,
  secrets: WorkspaceSecrets,
  workspace: string,
): SandboxJudge {
  const masked = createMaskTest(secrets, workspace);
  return (relative, change, context) =>
    masked(relative)
      ? `${relative} looks secret and was masked in the sandbox (the command saw it empty); it keeps its content`
      : judge(relative, change, context);
}

async function finishRun(
  machine: MachineView,
  directory: RunDirectory,
  pending: { readonly directory: string; readonly cgroup?: RunCgroup },
  workspace: string,
  run: SandboxRunOptions,
  secrets: WorkspaceSecrets,
  limits: SandboxLimits,
): Promise<SandboxOutcome> {
  const limitsReached: string[] = [];
  const withLimits = (outcome: SandboxOutcome): SandboxOutcome =>
    limitsReached.length > 0 ? { ...outcome, limitsReached } : outcome;
  try {
    directory.closeDescriptors();
    const init = await readSandboxInit(directory.infoFile);
    const ended = await waitForSandboxExit(init, EXIT_WAIT_MS);
    const kills = (await pending.cgroup?.memoryKills()) ?? 0;
    if (kills > 0) {
      limitsReached.push(
        `The command's processes together passed the sandbox's memory limit of ${formatBytes(limits.totalMemoryBytes)}: the kernel killed ${kills === 1 ? "one of them" : `${kills} of them`}.`,
      );
    }
    if (!ended) {
      return withLimits({
        applied: [],
        discarded: [
          {
            path: ".",
            reason:
              "the command's processes did not end in time, so none of its changes were applied",
          },
        ],
      });
    }
    let upper;
    try {
      upper = await readUpperTree(directory.upper, limits.changesBytes);
    } catch (error) {
      if (!(error instanceof ChangesTooLargeError)) throw error;
      return withLimits({
        applied: [],
        discarded: [
          {
            path: ".",
            reason: `the command's changes hold ${error.message}, past the sandbox's limit of ${formatBytes(limits.changesBytes)} for one command, so none of them were applied; the workspace is as it was`,
          },
        ],
      });
    }
    const outcome = await applyChanges({
      workspace,
      upper,
      judge: judgeWithMasks(run.judge ?? acceptEverything, secrets, workspace),
      writableGit: run.writableGit ?? false,
      privileged: !machine.tools.unprivileged,
      findReplaced: (candidates) =>
        findReplacedDirectories(machine.tools, directory, workspace, candidates),
    });
    return withLimits(outcome);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return withLimits({
      applied: [],
      discarded: [
        { path: ".", reason: `the sandbox could not apply the command's changes: ${reason}` },
      ],
    });
  } finally {
    await removeRunDirectory(directory.root).catch(() => undefined);
    // The kernel frees a cgroup a moment after its last process was reaped (rmdir says
    // EBUSY until then); nothing waits for that. The run stays pending, so that the
    // process's exit removes the cgroup if it is still there.
    const { cgroup } = pending;
    if (cgroup === undefined) machine.pending.delete(pending);
    else {
      void cgroup
        .remove()
        .catch(() => undefined)
        .finally(() => machine.pending.delete(pending));
    }
  }
}
