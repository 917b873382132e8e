import type { Arg, ArgvContext } from "./context.js";

const PRIVILEGE = "escalates privileges";
const DISK = "rewrites disks, partitions or filesystems";
const SYSTEM = "changes the running system";
const RAW_NETWORK = "opens raw network connections (reverse shells, exfiltration)";

/** Programs refused in every mode whatever their arguments, with why. */
const ALWAYS_BLOCKED: ReadonlyMap<string, string> = new Map([
  ...[
    "sudo",
    "su",
    "doas",
    "pkexec",
    "sudoedit",
    "run0",
    "runuser",
    "setpriv",
    "capsh",
    "newgrp",
    "sg",
  ].map((name) => [name, `${PRIVILEGE} (runs a command as another user)`] as const),
  ["chroot", `${PRIVILEGE} (changes the root directory)`],
  ["nsenter", `${PRIVILEGE} (enters other namespaces)`],
  ["unshare", `${PRIVILEGE} (new user namespace with a fake root, used in sandbox escapes)`],
  ["setcap", `${PRIVILEGE} (grants file capabilities)`],
  ["chown", "changes file ownership"],
  ["chgrp", "changes file group ownership"],
  ["chattr", "changes file attributes (immutable files)"],
  ["setfacl", "changes file access control lists"],
  ...[
    "visudo",
    "passwd",
    "chpasswd",
    "useradd",
    "usermod",
    "userdel",
    "groupadd",
    "groupmod",
    "groupdel",
    "gpasswd",
  ].map((name) => [name, "changes users, groups or sudo rules"] as const),
  ...["docker", "podman", "nerdctl", "lxc", "systemd-run", "machinectl"].map(
    (name) => [name, `${PRIVILEGE} (container and service managers are root-equivalent)`] as const,
  ),
  ...[
    "mke2fs",
    "mkswap",
    "mkdosfs",
    "mkntfs",
    "wipefs",
    "fdisk",
    "sfdisk",
    "cfdisk",
    "gdisk",
    "sgdisk",
    "cgdisk",
    "parted",
    "blkdiscard",
    "hdparm",
    "cryptsetup",
    "dmsetup",
    "losetup",
    "mount",
    "umount",
    "swapon",
    "swapoff",
    "mdadm",
    "lvremove",
    "vgremove",
    "pvremove",
    "zpool",
    "tune2fs",
    "resize2fs",
    "debugfs",
    "badblocks",
    "e2fsck",
  ].map((name) => [name, DISK] as const),
  ...[
    "shutdown",
    "reboot",
    "halt",
    "poweroff",
    "init",
    "telinit",
    "kexec",
    "insmod",
    "rmmod",
    "modprobe",
    "iptables",
    "ip6tables",
    "nft",
    "ufw",
    "mknod",
    "at",
    "batch",
    "launchctl",
    "service",
    "update-rc.d",
    "chkconfig",
    "grub-install",
    "update-grub",
    "efibootmgr",
    "bootctl",
  ].map((name) => [name, SYSTEM] as const),
  ...["nc", "ncat", "netcat", "socat", "telnet", "cryptcat", "pwncat"].map(
    (name) => [name, RAW_NETWORK] as const,
  ),
  ["eval", "runs text as shell code, which hides what actually runs"],
]);

const SYSTEMCTL_READ_ONLY = new Set([
  "status",
  "show",
  "cat",
  "list-units",
  "list-unit-files",
  "list-timers",
  "list-sockets",
  "list-dependencies",
  "is-active",
  "is-enabled",
  "is-failed",
  "help",
  "--version",
  "--help",
]);

/** Why `name` is refused whatever its arguments, or null. */
export function alwaysBlockedReason(name: string): string | null {
  if (/^mkfs(?:\..+)?$/.test(name) || /^fsck(?:\..+)?$/.test(name)) return DISK;
  return ALWAYS_BLOCKED.get(name) ?? null;
}

/** The sentence for a refused program. */
export function refused(subject: string, why: string): string {
  return `\`${subject}\` ${why}; it is refused in every mode.`;
}

function operands(args: readonly Arg[]): string[] {
  return args
    .slice(1)
    .map((arg) => arg.value)
    .filter((value) => !value.startsWith("-"));
}

function conditionalReason(name: string, args: readonly Arg[]): string | null {
  const values = args.slice(1).map((arg) => arg.value);
  switch (name) {
    case "systemctl": {
      const verb = operands(args)[0];
      return verb !== undefined && !SYSTEMCTL_READ_ONLY.has(verb)
        ? `changes services (\`systemctl ${verb}\`), which can persist code across reboots`
        : null;
    }
    case "crontab":
      return values.includes("-l") && values.length === 1
        ? null
        : "installs or changes cron jobs (persistence)";
    case "sysctl":
      return values.some((value) => value === "-w" || value === "-p" || value.includes("="))
        ? "changes kernel parameters"
        : null;
    case "kill":
    case "pkill":
    case "killall":
      return values.slice(1).includes("-1") || values.includes("1")
        ? "signals every process (or init)"
        : null;
    default:
      return null;
  }
}

/**
 * Blocks denylisted programs. In embedded mode (an argv found inside data) a program-only
 * rule needs something after the name, so `man sudo` or `apt install sudo` stay quiet.
 * Returns whether the program was denylisted.
 */
export function checkDenylist(name: string, args: readonly Arg[], ctx: ArgvContext): boolean {
  const always = alwaysBlockedReason(name);
  if (always !== null) {
    if (!ctx.embedded || args.length > 1) ctx.findings.block(refused(name, always));
    return true;
  }
  const conditional = conditionalReason(name, args);
  if (conditional !== null) {
    ctx.findings.block(refused(name, conditional));
    return true;
  }
  return ["systemctl", "crontab", "sysctl", "kill", "pkill", "killall"].includes(name);
}

/** Names the denylist knows, for glob-matching a computed program name. */
export const DENYLISTED_NAMES: ReadonlySet<string> = new Set([
  ...ALWAYS_BLOCKED.keys(),
  "mkfs",
  "systemctl",
  "crontab",
]);
