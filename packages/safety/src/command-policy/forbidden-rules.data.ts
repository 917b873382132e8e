/**
 * The forbidden rules: commands XZatoma never runs, in any mode, sandbox or not. Data, not
 * code: each rule is a prefix of a command's words (a word, or a list of alternatives,
 * per position), the reason a person and the model read, and examples that must and must
 * not match, checked every time the rules load (see `forbidden-rules.ts`).
 *
 * The list is short on purpose. It is a convenience that refuses at once what no task
 * needs; the sandbox (no privileges, no devices, no host) is what makes a command that is
 * not on it harmless. Add a rule only for a class of commands, never for one spelling.
 */
export interface ForbiddenRuleData {
  /** The command's first words: the program (normalised: basename, unquoted), then arguments. */
  readonly pattern: readonly (string | readonly string[])[];
  readonly reason: string;
  /** Commands (words separated by spaces) that must match. */
  readonly match: readonly string[];
  /** Commands that must not match. */
  readonly not_match: readonly string[];
}

export const FORBIDDEN_RULES: readonly ForbiddenRuleData[] = [
  {
    pattern: [["sudo", "su", "doas", "pkexec", "sudoedit", "run0", "runuser", "setpriv"]],
    reason:
      "runs a command as another user; XZatoma never escalates privileges (ask the user to run it themselves)",
    match: ["sudo ls", "su -c id root", "doas rm x", "pkexec bash", "run0 true"],
    not_match: ["sudoku", "ls sudo", "echo su"],
  },
  {
    pattern: [["shutdown", "reboot", "poweroff", "halt"]],
    reason: "stops or restarts the machine",
    match: ["shutdown -h now", "reboot", "poweroff --force"],
    not_match: ["echo reboot", "shutdown-notes.sh"],
  },
  {
    pattern: [
      ["systemctl", "loginctl"],
      ["poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "soft-reboot"],
    ],
    reason: "stops or restarts the machine",
    match: ["systemctl reboot", "loginctl poweroff"],
    not_match: ["systemctl status nginx", "systemctl --user list-units"],
  },
  {
    pattern: [
      ["init", "telinit"],
      ["0", "6"],
    ],
    reason: "stops or restarts the machine",
    match: ["init 0", "telinit 6"],
    not_match: ["init", "git init"],
  },
  {
    pattern: [
      (
        "mkfs mkfs.ext2 mkfs.ext3 mkfs.ext4 mkfs.xfs mkfs.btrfs mkfs.vfat mkfs.fat mkfs.ntfs " +
        "mke2fs mkswap wipefs fdisk sfdisk gdisk sgdisk parted blkdiscard"
      ).split(" "),
    ],
    reason: "formats or repartitions disks",
    match: ["mkfs.ext4 /dev/sda1", "wipefs -a /dev/sdb", "parted /dev/sda rm 1"],
    not_match: ["mkdir fs", "echo mkfs"],
  },
];
