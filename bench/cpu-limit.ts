// A CPU limit for one process and its children, as a container's CPU limit (a Kubernetes pod's
// `resources.limits.cpu`) sets it: a cgroup of its own with a CFS quota of `cores` CPUs per
// 100 ms period. For benchmarks that measure how throughput grows with instances on a machine
// with fewer cores than instances: each instance gets the same share, as replicas would.
// Linux only, as root; cgroup v2 (cpu.max) or v1's cpu controller (cpu.cfs_quota_us).
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const CGROUP_ROOT = "/sys/fs/cgroup";
const PERIOD_US = 100_000;

/** The directory new cgroups are made in, and how their quota is written. */
function hierarchy(): { dir: string; quota: (dir: string, cores: number) => void } {
  if (existsSync(path.join(CGROUP_ROOT, "cgroup.controllers"))) {
    return {
      dir: CGROUP_ROOT,
      quota: (dir, cores) =>
        writeFileSync(path.join(dir, "cpu.max"), `${Math.round(cores * PERIOD_US)} ${PERIOD_US}`),
    };
  }
  const v1 = path.join(CGROUP_ROOT, "cpu");
  if (existsSync(path.join(v1, "cpu.cfs_quota_us"))) {
    return {
      dir: v1,
      quota: (dir, cores) => {
        writeFileSync(path.join(dir, "cpu.cfs_period_us"), String(PERIOD_US));
        writeFileSync(path.join(dir, "cpu.cfs_quota_us"), String(Math.round(cores * PERIOD_US)));
      },
    };
  }
  throw new Error(
    `no cgroup CPU controller under ${CGROUP_ROOT} (cpu.max or cpu/cpu.cfs_quota_us)`,
  );
}

/**
 * Puts `pid` (and the processes it starts from now on) under a limit of `cores` CPUs. Returns
 * the function that removes the cgroup once the process has exited. Throws, naming the file,
 * when the cgroup cannot be made (not root, no CPU controller).
 */
export function limitCpu(pid: number, cores: number, name: string): () => void {
  if (!(cores > 0)) throw new Error(`a CPU limit must be above 0 cores, not ${cores}`);
  const { dir: parent, quota } = hierarchy();
  const dir = path.join(parent, `xzatoma-bench-${process.pid}-${name}`);
  try {
    mkdirSync(dir);
    quota(dir, cores);
    writeFileSync(path.join(dir, "cgroup.procs"), String(pid));
  } catch (error) {
    throw new Error(
      `cannot limit process ${pid} to ${cores} CPUs in ${dir} (root and a writable cgroup CPU controller are needed): ${(error as Error).message}`,
    );
  }
  return () => {
    try {
      rmdirSync(dir);
    } catch {
      // Still in use (a process left in it) or gone: left for the next boot.
    }
  };
}
