import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBwrapArguments, findSystemEntries, type SandboxView } from "./bwrap-arguments.js";
import { findEtcMasks } from "./etc-masks.js";
import { DEFAULT_SANDBOX_LIMITS } from "./sandbox-limits.js";

const view: SandboxView = {
  workspace: "/w",
  cwd: "/w/src",
  home: "/home/sandbox",
  network: false,
  readOnlyPaths: ["/w/.git", "/w/.envrc"],
  extraReadOnlyPaths: ["/opt/toolchain"],
  systemEntries: [{ path: "/usr" }, { path: "/bin", link: "usr/bin" }],
  etcMasks: { files: ["/etc/shadow"], directories: ["/etc/ssh"] },
  maskFile: "/run-dir/mask-file",
  maskDirectory: "/run-dir/mask-directory",
  limits: DEFAULT_SANDBOX_LIMITS,
  seccompFd: 3,
  infoFd: 4,
};

/** The position of a run of arguments, -1 when absent. */
function position(args: readonly string[], ...run: string[]): number {
  for (let index = 0; index + run.length <= args.length; index++) {
    if (run.every((value, offset) => args[index + offset] === value)) return index;
  }
  return -1;
}

describe("bubblewrap's arguments", () => {
  const args = buildBwrapArguments(view);

  it("unshares every namespace, the network included, and keeps nothing of the caller", () => {
    for (const flag of [
      "--unshare-all",
      "--unshare-user",
      "--disable-userns",
      "--die-with-parent",
      "--new-session",
    ]) {
      expect(args).toContain(flag);
    }
    expect(args).not.toContain("--share-net");
    expect(position(args, "--cap-drop", "ALL")).toBeGreaterThan(-1);
    expect(position(args, "--seccomp", "3")).toBeGreaterThan(-1);
    expect(buildBwrapArguments({ ...view, network: true })).toContain("--share-net");
  });

  it("shows system directories read-only and their links as links, and nothing of /home, /root or /run", () => {
    expect(position(args, "--ro-bind", "/usr", "/usr")).toBeGreaterThan(-1);
    expect(position(args, "--symlink", "usr/bin", "/bin")).toBeGreaterThan(-1);
    for (const hidden of [
      "/home",
      "/root",
      "/run",
      "/var/run",
      "/mnt",
      "/media",
      "/srv",
      "/opt",
      "/",
    ]) {
      expect(position(args, "--ro-bind", hidden, hidden)).toBe(-1);
      expect(position(args, "--bind", hidden, hidden)).toBe(-1);
    }
    expect(position(args, "--ro-bind", "/opt/toolchain", "/opt/toolchain")).toBeGreaterThan(-1);
  });

  it("lays the masks over /etc, after /etc itself", () => {
    const etc = position(args, "--ro-bind", "/etc", "/etc");
    expect(etc).toBeGreaterThan(-1);
    expect(position(args, "--ro-bind", "/run-dir/mask-file", "/etc/shadow")).toBeGreaterThan(etc);
    expect(position(args, "--ro-bind", "/run-dir/mask-directory", "/etc/ssh")).toBeGreaterThan(etc);
  });

  it("mounts an empty home and temporary directories of the configured size before the workspace", () => {
    const workspace = position(args, "--bind", "/w", "/w");
    const size = String(DEFAULT_SANDBOX_LIMITS.tmpBytes);
    for (const directory of ["/tmp", "/var/tmp", "/home/sandbox"]) {
      const mount = position(args, "--size", size, "--tmpfs", directory);
      expect(mount).toBeGreaterThan(-1);
      expect(mount).toBeLessThan(workspace);
    }
  });

  it("binds protected entries read-only over the writable workspace, then makes the root read-only", () => {
    const workspace = position(args, "--bind", "/w", "/w");
    expect(position(args, "--ro-bind", "/w/.git", "/w/.git")).toBeGreaterThan(workspace);
    expect(position(args, "--ro-bind", "/w/.envrc", "/w/.envrc")).toBeGreaterThan(workspace);
    expect(args.slice(-4)).toEqual(["--remount-ro", "/", "--chdir", "/w/src"]);
  });

  it("masks the workspace's secrets after its protected entries, which may hold some", () => {
    const masked = buildBwrapArguments({
      ...view,
      workspaceSecrets: { files: ["/w/.git/config", "/w/.env"], directories: ["/w/.ssh"] },
      secretFile: "/run-dir/secret-file",
      secretDirectory: "/run-dir/secret-directory",
    });
    const git = position(masked, "--ro-bind", "/w/.git", "/w/.git");
    for (const [mask, target] of [
      ["/run-dir/secret-file", "/w/.git/config"],
      ["/run-dir/secret-file", "/w/.env"],
      ["/run-dir/secret-directory", "/w/.ssh"],
    ] as const) {
      expect(position(masked, "--ro-bind", mask, target)).toBeGreaterThan(git);
    }
    expect(masked.slice(-4)).toEqual(["--remount-ro", "/", "--chdir", "/w/src"]);
  });

  it("binds where resolv.conf really lives only when the network is allowed", () => {
    const withResolver = { ...view, resolvConf: "/run/resolve/stub-resolv.conf" };
    expect(buildBwrapArguments(withResolver)).not.toContain("/run/resolve/stub-resolv.conf");
    expect(
      position(
        buildBwrapArguments({ ...withResolver, network: true }),
        "--ro-bind-try",
        "/run/resolve/stub-resolv.conf",
        "/run/resolve/stub-resolv.conf",
      ),
    ).toBeGreaterThan(-1);
  });
});

describe("what the sandbox hides in /etc", () => {
  let etc: string;
  beforeAll(async () => {
    etc = await mkdtemp(path.join(os.tmpdir(), "xzatoma-etc-"));
    await writeFile(path.join(etc, "passwd"), "root:x:0:0::/root:/bin/sh\n", { mode: 0o644 });
    await writeFile(path.join(etc, "shadow"), "root:$6$secret\n", { mode: 0o640 });
    await writeFile(path.join(etc, "npmrc"), "registry=x\n", { mode: 0o644 });
    await mkdir(path.join(etc, "sudoers.d"), { mode: 0o750 });
    await writeFile(path.join(etc, "sudoers.d", "inner"), "x\n", { mode: 0o644 });
    await mkdir(path.join(etc, "ssl", "private"), { recursive: true });
    await chmod(path.join(etc, "ssl", "private"), 0o755);
    await writeFile(path.join(etc, "ssl", "openssl.cnf"), "x\n", { mode: 0o644 });
    await symlink("/proc/mounts", path.join(etc, "mtab"));
  });
  afterAll(() => rm(etc, { recursive: true, force: true }));

  it("hides what other users may not read and the named secrets; keeps the rest and links", async () => {
    const masks = await findEtcMasks(etc, [path.join(etc, "ssl", "private")]);
    expect(masks.files).toEqual([path.join(etc, "shadow")]);
    expect([...masks.directories].sort()).toEqual(
      [path.join(etc, "ssl", "private"), path.join(etc, "sudoers.d")].sort(),
    );
  });
});

describe("system directories", () => {
  it("are found as they are on this machine: directories, or links into /usr", async () => {
    const entries = await findSystemEntries(["/usr", "/bin", "/does-not-exist"]);
    expect(entries[0]).toEqual({ path: "/usr" });
    expect(entries.map((entry) => entry.path)).toEqual(["/usr", "/bin"]);
  });
});
