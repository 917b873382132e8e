import { randomBytes } from "node:crypto";
import { constants, existsSync, rmdirSync } from "node:fs";
import { access, mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";

// The kernel never applies RLIMIT_NPROC to processes whose real user is root, and a
// sandbox run by root keeps root as its user (without capabilities). There the process
// count is held by a pids cgroup instead, and the memory of the whole sandbox by a memory
// cgroup: one of each per command, made beside XZatoma's own. Only root may make them on
// most machines, so an ordinary user's sandbox has per-process limits alone.

interface MountInfo {
  readonly root: string;
  readonly mountPoint: string;
  readonly type: string;
  readonly superOptions: readonly string[];
}

function parseMountInfo(text: string): MountInfo[] {
  const mounts: MountInfo[] = [];
  for (const line of text.split("\n")) {
    const [before, after] = line.split(" - ");
    if (before === undefined || after === undefined) continue;
    const fields = before.split(" ");
    const [type, , superOptions] = after.split(" ");
    const decode = (value: string) =>
      value.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
    if (fields[3] === undefined || fields[4] === undefined || type === undefined) continue;
    mounts.push({
      root: decode(fields[3]),
      mountPoint: decode(fields[4]),
      type,
      superOptions: (superOptions ?? "").split(","),
    });
  }
  return mounts;
}

/** Our cgroup in a hierarchy, as a directory under the mount that shows it. */
function ownDirectory(mount: MountInfo, cgroupPath: string): string | undefined {
  const relative = path.posix.relative(mount.root, cgroupPath);
  if (relative.startsWith("..")) return undefined;
  return path.join(mount.mountPoint, relative);
}

/** A controller the sandbox uses. */
export type CgroupController = "pids" | "memory";

/** Where a controller's per-command cgroups are made, and in which cgroup version. */
export interface CgroupParent {
  readonly directory: string;
  readonly version: 1 | 2;
}

/** The parents found for each controller; both may be one cgroup v2 directory. */
export interface CgroupParents {
  readonly pids?: CgroupParent;
  readonly memory?: CgroupParent;
}

async function writable(directory: string): Promise<boolean> {
  try {
    await access(directory, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where per-command cgroups can be made, for each controller: the root of a cgroup v2
 * hierarchy that hands the controller to its children, or our own cgroup in the
 * controller's v1 hierarchy. A controller is missing when neither is there or writable (a
 * container that shows cgroups read-only, an ordinary user).
 */
export async function findCgroupParents(): Promise<CgroupParents> {
  let mounts: MountInfo[];
  let memberships: string[];
  try {
    mounts = parseMountInfo(await readFile("/proc/self/mountinfo", "utf8"));
    memberships = (await readFile("/proc/self/cgroup", "utf8")).split("\n");
  } catch {
    return {};
  }
  const find = async (controller: CgroupController): Promise<CgroupParent | undefined> => {
    for (const mount of mounts.filter((entry) => entry.type === "cgroup2")) {
      // A v2 cgroup with processes cannot pass controllers down, so use the hierarchy's root.
      const controllers = await readFile(
        path.join(mount.mountPoint, "cgroup.subtree_control"),
        "utf8",
      ).catch(() => "");
      if (controllers.split(/\s+/).includes(controller) && (await writable(mount.mountPoint))) {
        return { directory: mount.mountPoint, version: 2 };
      }
    }
    const v1 = memberships
      .map((line) => line.split(":"))
      .find((parts) => parts[1]?.split(",").includes(controller));
    const v1Mount = mounts.find(
      (entry) => entry.type === "cgroup" && entry.superOptions.includes(controller),
    );
    if (v1 && v1Mount) {
      const own = ownDirectory(v1Mount, v1.slice(2).join(":"));
      if (own !== undefined && (await writable(own))) return { directory: own, version: 1 };
    }
    return undefined;
  };
  const [pids, memory] = await Promise.all([find("pids"), find("memory")]);
  return { ...(pids ? { pids } : {}), ...(memory ? { memory } : {}) };
}

/** What one command's cgroups hold it to. */
export interface RunCgroupLimits {
  /** Processes and threads at once. */
  readonly maxTasks: number;
  /** Memory of all its processes together (swap included where the kernel counts it). */
  readonly memoryBytes: number;
}

/** One command's cgroups. */
export interface RunCgroup {
  /**
   * The files a single-threaded process writes `0` to, to join (one per hierarchy). On
   * cgroup v1 that is `tasks`, which moves the writing thread alone: the kernel then skips
   * the global lock whose every write waits for an RCU grace period (10-20 ms on an idle
   * machine) that moving a whole process through `cgroup.procs` costs. A v2 cgroup takes
   * processes only, through `cgroup.procs`.
   */
  readonly joinFiles: readonly string[];
  /** True when a memory cgroup holds the command. */
  readonly boundsMemory: boolean;
  /** How many of its processes the kernel killed for passing the memory limit. */
  memoryKills(): Promise<number>;
  /** Removes the cgroups once their processes are gone (it waits a little for stragglers). */
  remove(): Promise<void>;
  removeSync(): void;
}

async function removeDirectory(directory: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await rmdir(directory);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      if (code !== "EBUSY") throw error;
      await delay(10);
    }
  }
}

/** Writes the memory limit: v2 without swap and killed as a group; v1 with swap counted. */
async function limitMemory(directory: string, version: 1 | 2, bytes: number): Promise<void> {
  if (version === 2) {
    await writeFile(path.join(directory, "memory.max"), String(bytes));
    const swap = path.join(directory, "memory.swap.max");
    if (existsSync(swap)) await writeFile(swap, "0");
    const group = path.join(directory, "memory.oom.group");
    if (existsSync(group)) await writeFile(group, "1");
    return;
  }
  await writeFile(path.join(directory, "memory.limit_in_bytes"), String(bytes));
  const withSwap = path.join(directory, "memory.memsw.limit_in_bytes");
  if (existsSync(withSwap)) await writeFile(withSwap, String(bytes));
}

async function readKills(directory: string, version: 1 | 2): Promise<number> {
  const file = path.join(directory, version === 2 ? "memory.events" : "memory.oom_control");
  const text = await readFile(file, "utf8").catch(() => "");
  const match = /^oom_kill (\d+)$/m.exec(text);
  return match ? Number.parseInt(match[1] as string, 10) : 0;
}

/**
 * Makes the cgroups of one command under `parents`: a pids cgroup holding at most
 * `limits.maxTasks` processes and threads, a memory cgroup holding all its processes to
 * `limits.memoryBytes` (one cgroup when both controllers share a v2 hierarchy).
 */
export async function createRunCgroup(
  parents: CgroupParents,
  limits: RunCgroupLimits,
): Promise<RunCgroup> {
  const name = `xzatoma-sandbox-${randomBytes(6).toString("hex")}`;
  const made: string[] = [];
  const joinFiles: string[] = [];
  let memory: { directory: string; version: 1 | 2 } | undefined;
  const make = async (parent: CgroupParent): Promise<string> => {
    const directory = path.join(parent.directory, name);
    if (!made.includes(directory)) {
      await mkdir(directory);
      made.push(directory);
      joinFiles.push(path.join(directory, parent.version === 1 ? "tasks" : "cgroup.procs"));
    }
    return directory;
  };
  try {
    if (parents.pids) {
      await writeFile(path.join(await make(parents.pids), "pids.max"), String(limits.maxTasks));
    }
    if (parents.memory) {
      const directory = await make(parents.memory);
      await limitMemory(directory, parents.memory.version, limits.memoryBytes);
      memory = { directory, version: parents.memory.version };
    }
  } catch (error) {
    for (const directory of made) await rmdir(directory).catch(() => undefined);
    throw error;
  }
  return {
    joinFiles,
    boundsMemory: memory !== undefined,
    memoryKills: () => (memory ? readKills(memory.directory, memory.version) : Promise.resolve(0)),
    async remove() {
      for (const directory of made) await removeDirectory(directory);
    },
    removeSync() {
      for (const directory of made) {
        try {
          rmdirSync(directory);
        } catch {
          // best effort at exit
        }
      }
    },
  };
}
