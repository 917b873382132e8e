import { randomBytes } from "node:crypto";
import { rmdirSync } from "node:fs";
import { access, mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { constants } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";

// The kernel never applies RLIMIT_NPROC to processes whose real user is root, and a
// sandbox run by root keeps root as its user (without capabilities). There the process
// count is held by a pids cgroup instead: one per command, made beside XZatoma's own.

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

/**
 * Where per-command pids cgroups can be made: the root of a cgroup v2 hierarchy that
 * hands the pids controller to its children, or our own cgroup in a v1 pids hierarchy.
 * Undefined when neither is there or writable (a container that shows cgroups read-only).
 */
export async function findPidsCgroupParent(): Promise<string | undefined> {
  let mounts: MountInfo[];
  let memberships: string[];
  try {
    mounts = parseMountInfo(await readFile("/proc/self/mountinfo", "utf8"));
    memberships = (await readFile("/proc/self/cgroup", "utf8")).split("\n");
  } catch {
    return undefined;
  }
  const candidates: string[] = [];
  for (const mount of mounts.filter((entry) => entry.type === "cgroup2")) {
    // A v2 cgroup with processes cannot pass controllers down, so use the hierarchy's root.
    const controllers = await readFile(
      path.join(mount.mountPoint, "cgroup.subtree_control"),
      "utf8",
    ).catch(() => "");
    if (controllers.split(/\s+/).includes("pids")) candidates.push(mount.mountPoint);
  }
  const v1 = memberships
    .map((line) => line.split(":"))
    .find((parts) => parts[1]?.split(",").includes("pids"));
  const v1Mount = mounts.find(
    (entry) => entry.type === "cgroup" && entry.superOptions.includes("pids"),
  );
  if (v1 && v1Mount) {
    const own = ownDirectory(v1Mount, v1.slice(2).join(":"));
    if (own !== undefined) candidates.push(own);
  }
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.W_OK);
      return candidate;
    } catch {
      // read-only here
    }
  }
  return undefined;
}

/** One command's pids cgroup. */
export interface RunCgroup {
  /** The file a process writes its pid to, to join. */
  readonly procs: string;
  /** Removes the cgroup once its processes are gone (it waits a little for stragglers). */
  remove(): Promise<void>;
  removeSync(): void;
}

/** Makes a cgroup under `parent` that holds at most `maxTasks` processes and threads. */
export async function createRunCgroup(parent: string, maxTasks: number): Promise<RunCgroup> {
  const directory = path.join(parent, `xzatoma-sandbox-${randomBytes(6).toString("hex")}`);
  await mkdir(directory);
  try {
    await writeFile(path.join(directory, "pids.max"), String(maxTasks));
  } catch (error) {
    await rmdir(directory).catch(() => undefined);
    throw error;
  }
  return {
    procs: path.join(directory, "cgroup.procs"),
    async remove() {
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
    },
    removeSync() {
      try {
        rmdirSync(directory);
      } catch {
        // best effort at exit
      }
    },
  };
}
