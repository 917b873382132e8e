import path from "node:path";
import type { Arg, ArgvContext } from "./context.js";
import { refused } from "./denylist.js";
import { hasOption, optionValues, parseOptions, type OptionTable } from "./option-scan.js";
import { againstCwd, globBase, requestPath } from "./path-arguments.js";
import { RSYNC_OPTIONS } from "./fetch-options.js";

const SYSTEM_DIRECTORIES = new Set([
  "/bin",
  "/boot",
  "/dev",
  "/etc",
  "/home",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/media",
  "/mnt",
  "/opt",
  "/proc",
  "/root",
  "/run",
  "/sbin",
  "/snap",
  "/srv",
  "/sys",
  "/tmp",
  "/usr",
  "/var",
  "/usr/bin",
  "/usr/lib",
  "/usr/local",
  "/usr/sbin",
  "/usr/share",
  "/var/lib",
  "/var/log",
  "/System",
  "/Library",
  "/Applications",
  "/Users",
]);

/**
 * What a destructive target would wipe when it is the root, a home directory or a system
 * directory (in any spelling: `//`, `/.`, `/*`, `~`, `$HOME`), or null.
 */
export function catastrophicTarget(value: string, home: string): string | null {
  if (!value.startsWith("/")) return null;
  const base = path.posix.normalize(globBase(value));
  const trimmed = base.length > 1 ? base.replace(/\/+$/, "") : base;
  if (trimmed === "/") return "the whole filesystem";
  if (trimmed === home || /^\/(?:home|Users)\/[^/]+$/.test(trimmed) || trimmed === "/root")
    return "a home directory";
  if (SYSTEM_DIRECTORIES.has(trimmed)) return `the system directory ${trimmed}`;
  return null;
}

interface WriterSpec {
  readonly options: OptionTable;
  /** Options whose value is a path written (`cp -t DIR`, `sort -o FILE`). */
  readonly pathOptions?: readonly string[];
  /** Operands are written; false when only path options write (`sort`). */
  readonly operands: boolean;
  readonly does: string;
}

const WRITERS: ReadonlyMap<string, WriterSpec> = new Map([
  [
    "rmdir",
    {
      options: { longFlag: ["ignore-fail-on-non-empty", "parents", "verbose"] },
      operands: true,
      does: "removes directories",
    },
  ],
  ["unlink", { options: {}, operands: true, does: "deletes files" }],
  [
    "cp",
    {
      options: { shortValue: "tS", longValue: ["target-directory", "suffix"] },
      pathOptions: ["-t", "--target-directory"],
      operands: true,
      does: "copies files",
    },
  ],
  [
    "mv",
    {
      options: { shortValue: "tS", longValue: ["target-directory", "suffix"] },
      pathOptions: ["-t", "--target-directory"],
      operands: true,
      does: "moves files",
    },
  ],
  [
    "install",
    {
      options: {
        shortValue: "gmotS",
        longValue: ["group", "mode", "owner", "target-directory", "suffix"],
      },
      pathOptions: ["-t", "--target-directory"],
      operands: true,
      does: "installs files",
    },
  ],
  [
    "ln",
    {
      options: { shortValue: "tS", longValue: ["target-directory", "suffix"] },
      pathOptions: ["-t", "--target-directory"],
      operands: true,
      does: "creates links",
    },
  ],
  ["link", { options: {}, operands: true, does: "creates hard links" }],
  ["tee", { options: { longValue: [] }, operands: true, does: "writes files" }],
  [
    "touch",
    {
      options: { shortValue: "dtr", longValue: ["date", "reference", "time"] },
      operands: true,
      does: "creates or touches files",
    },
  ],
  [
    "mkdir",
    {
      options: { shortValue: "m", longValue: ["mode"] },
      operands: true,
      does: "creates directories",
    },
  ],
  [
    "truncate",
    {
      options: { shortValue: "sr", longValue: ["size", "reference"] },
      operands: true,
      does: "truncates files",
    },
  ],
  [
    "patch",
    {
      options: {
        shortValue: "BbDdFgiopruVxYz",
        longValue: ["output", "input", "directory", "reject-file", "strip", "prefix", "suffix"],
      },
      pathOptions: ["-o", "--output", "-d", "--directory", "-r", "--reject-file"],
      operands: true,
      does: "changes files as a patch says",
    },
  ],
  [
    "shred",
    {
      options: { shortValue: "ns", longValue: ["iterations", "size", "random-source"] },
      operands: true,
      does: "overwrites files",
    },
  ],
  [
    "rsync",
    {
      options: RSYNC_OPTIONS,
      operands: true,
      does: "copies or deletes files",
    },
  ],
  [
    "unzip",
    {
      options: { shortValue: "dxP" },
      pathOptions: ["-d"],
      operands: false,
      does: "extracts archives",
    },
  ],
  [
    "sort",
    {
      options: {
        shortValue: "kotST",
        longValue: [
          "key",
          "output",
          "field-separator",
          "buffer-size",
          "temporary-directory",
          "compress-program",
          "files0-from",
          "parallel",
          "batch-size",
        ],
      },
      pathOptions: ["-o", "--output", "-T", "--temporary-directory"],
      operands: false,
      does: "sorts text",
    },
  ],
]);

function checkRm(args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), {
    shortFlag: "dfiIrRv",
    longFlag: [
      "force",
      "interactive",
      "one-file-system",
      "no-preserve-root",
      "preserve-root",
      "recursive",
      "dir",
      "verbose",
    ],
  });
  const recursive = hasOption(parsed, "-r", "-R", "--recursive");
  if (hasOption(parsed, "--no-preserve-root")) {
    ctx.findings.block(
      refused("rm --no-preserve-root", "switches off the guard against deleting /"),
    );
  }
  for (const target of parsed.operands) {
    const wiped = catastrophicTarget(againstCwd(ctx, target.value), ctx.policy.home);
    if (recursive && wiped !== null) {
      ctx.findings.block(refused(`rm -r ${target.raw}`, `deletes ${wiped}`));
    }
    requestPath(ctx, target, "write", "rm");
  }
  const shown = parsed.operands.map((target) => target.raw).join(" ");
  ctx.findings.confirm(
    `\`rm\` deletes files${shown === "" ? "" : ` (\`${shown}\`)`}; it needs confirmation.`,
  );
}

function isSetIdMode(mode: string): boolean {
  if (/^0?[0-7]{4}$/.test(mode)) return /[2-7]/.test(mode.slice(-4, -3));
  return /^[ugoa]*[+=][rwxXt]*s/.test(mode) || /,[ugoa]*[+=][rwxXt]*s/.test(mode);
}

function isWideOrLocking(mode: string): string | null {
  if (/^0?[0-7]{3,4}$/.test(mode)) {
    if ((Number(mode.slice(-1)) & 2) !== 0) return "makes everything world-writable";
    return /^0?0{3,4}$/.test(mode) ? "removes every permission (locks files)" : null;
  }
  const clauses = mode.split(",");
  if (clauses.some((clause) => /^[ao]*[+=][rwxXst]*w/.test(clause)))
    return "makes everything world-writable";
  const locks = (clause: string) =>
    /^[ugoa]*=$/.test(clause) || /^[ugoa]*-(?=[^,]*r)(?=[^,]*w)(?=[^,]*x)[rwxXst]+$/.test(clause);
  return clauses.every(locks) ? "removes every permission (locks files)" : null;
}

function checkChmod(args: readonly Arg[], ctx: ArgvContext): void {
  let recursive = false;
  let mode: string | null = null;
  const targets: Arg[] = [];
  let ended = false;
  for (const arg of args.slice(1)) {
    const value = arg.value;
    if (!ended && value === "--") ended = true;
    else if (!ended && value.startsWith("--")) recursive ||= value.startsWith("--rec");
    else if (!ended && /^-[cfvR]+$/.test(value)) recursive ||= value.includes("R");
    else if (mode === null) mode = value;
    else targets.push(arg);
  }
  if (mode !== null && isSetIdMode(mode))
    ctx.findings.block(
      refused(`chmod ${mode}`, "sets the setuid or setgid bit (privilege escalation)"),
    );
  const wide = mode === null ? null : isWideOrLocking(mode);
  if (recursive && wide !== null) ctx.findings.block(refused(`chmod -R ${mode ?? ""}`, wide));
  for (const target of targets) {
    const wiped = catastrophicTarget(againstCwd(ctx, target.value), ctx.policy.home);
    if (recursive && wiped !== null)
      ctx.findings.block(
        refused(`chmod -R ${mode ?? ""} ${target.raw}`, `changes permissions of ${wiped}`),
      );
    requestPath(ctx, target, "write", "chmod");
  }
  ctx.findings.confirm(`\`chmod\` changes file permissions; it needs confirmation.`);
}

function checkDd(args: readonly Arg[], ctx: ArgvContext): void {
  for (const arg of args.slice(1)) {
    if (!arg.value.startsWith("of=")) continue;
    const target = { ...arg, value: arg.value.slice(3) };
    if (/^\/dev\/(?!null$|zero$|stdout$|stderr$)/.test(target.value)) {
      ctx.findings.block(refused(`dd of=${target.value}`, "overwrites a device"));
    }
    requestPath(ctx, target, "write", "dd");
  }
  ctx.findings.confirm("`dd` copies raw data; it needs confirmation.");
}

function checkSed(args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), {
    shortValue: "efl",
    longValue: ["expression", "file", "line-length"],
  });
  const inPlace = parsed.options.some(
    (option) => option.name === "-i" || option.name.startsWith("--in-place"),
  );
  if (!inPlace) return;
  const scripted = hasOption(parsed, "-e", "--expression", "-f", "--file");
  const files = scripted ? parsed.operands : parsed.operands.slice(1);
  for (const file of files) requestPath(ctx, file, "write", "sed -i");
  ctx.findings.confirm("`sed -i` edits files in place; it needs confirmation.");
}

/**
 * Rules for programs that delete or write files: catastrophic targets block, every target
 * is queued for the workspace check as a write. Returns whether `name` is such a program.
 */
export function checkDestroyers(name: string, args: readonly Arg[], ctx: ArgvContext): boolean {
  if (name === "rm") checkRm(args, ctx);
  else if (name === "chmod") checkChmod(args, ctx);
  else if (name === "dd") checkDd(args, ctx);
  else if (name === "sed") checkSed(args, ctx);
  else {
    const spec = WRITERS.get(name);
    if (spec === undefined) return false;
    const parsed = parseOptions(args.slice(1), spec.options);
    const targets = [
      ...(spec.operands ? parsed.operands : []),
      ...optionValues(parsed, ...(spec.pathOptions ?? [])),
    ];
    if (name === "install") {
      for (const mode of optionValues(parsed, "-m", "--mode")) {
        if (isSetIdMode(mode.value))
          ctx.findings.block(
            refused(
              `install -m ${mode.value}`,
              "installs a setuid or setgid file (privilege escalation)",
            ),
          );
      }
    }
    for (const target of targets) {
      if ((name === "rsync" || name === "scp") && /^[^/]*:/.test(target.value)) continue;
      if (name === "shred" && /^\/dev\//.test(target.value))
        ctx.findings.block(refused(`shred ${target.raw}`, "overwrites a device"));
      requestPath(ctx, target, "write", name);
    }
    if (name !== "sort" || targets.length > 0)
      ctx.findings.confirm(`\`${name}\` ${spec.does}; it needs confirmation.`);
  }
  return true;
}
