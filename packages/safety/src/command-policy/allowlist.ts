import { literalArg, type Arg, type ArgvContext, type RunArgv } from "./context.js";
import { parseFind } from "./find-args.js";
import { hasOption, optionValues, parseOptions, type OptionTable } from "./option-scan.js";
import { againstCwd, requestPath } from "./path-arguments.js";

/** How a read-only program takes its arguments. */
interface ReaderSpec {
  readonly options: OptionTable;
  /** What the operands are. */
  readonly operands: "paths" | "data" | "names" | "pattern-then-paths";
  /** Options whose value is a path that is read (`grep -f FILE`). */
  readonly pathOptions?: readonly string[];
  /** Options that make the command not plain, with why. */
  readonly confirm?: Readonly<Record<string, string>>;
  /** An unknown option needs confirmation (false: the program prints it, like echo). */
  readonly strict: boolean;
}

const FOLLOW = "follows the file forever and never ends";
const HEAD_TAIL: OptionTable = {
  shortFlag: "qvz",
  shortValue: "nc",
  longFlag: ["quiet", "silent", "verbose", "zero-terminated", "follow", "retry"],
  longValue: ["lines", "bytes", "pid", "sleep-interval", "max-unchanged-stats"],
  numeric: true,
  // The obsolete `-5c` (bytes), `-5l` (lines), `-5b` (blocks), `-5k`, `-5m`, with `q` and `v`
  // (`head -5qc FILE` reads FILE: no letter there takes a value); a following `f`
  // (`tail -5f`) is the follow option.
  numericUnits: "bcklmqv",
};

const SPECS: ReadonlyMap<string, ReaderSpec> = new Map<string, ReaderSpec>([
  [
    "ls",
    {
      options: {
        shortFlag: "aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1",
        shortValue: "ITw",
        longFlag: [
          "all",
          "almost-all",
          "author",
          "escape",
          "ignore-backups",
          "directory",
          "classify",
          "file-type",
          "full-time",
          "group-directories-first",
          "no-group",
          "human-readable",
          "si",
          "dereference",
          "dereference-command-line",
          "dereference-command-line-symlink-to-dir",
          "inode",
          "kibibytes",
          "literal",
          "numeric-uid-gid",
          "hide-control-chars",
          "show-control-chars",
          "quote-name",
          "reverse",
          "recursive",
          "size",
          "context",
          "help",
          "version",
          "color",
          "colour",
          "hyperlink",
          "indicator-style",
          "quoting-style",
          "sort",
          "time",
          "time-style",
          "format",
          "zero",
        ],
        longValue: ["block-size", "hide", "ignore", "tabsize", "width"],
      },
      operands: "paths",
      strict: true,
    },
  ],
  [
    "cat",
    {
      options: {
        shortFlag: "AbeEnstTuv",
        longFlag: [
          "show-all",
          "number-nonblank",
          "show-ends",
          "number",
          "squeeze-blank",
          "show-tabs",
          "show-nonprinting",
          "help",
          "version",
        ],
      },
      operands: "paths",
      strict: true,
    },
  ],
  ["head", { options: HEAD_TAIL, operands: "paths", strict: true }],
  [
    "tail",
    {
      options: { ...HEAD_TAIL, shortFlag: "qvzfF", shortValue: "ncs" },
      operands: "paths",
      confirm: {
        "-f": FOLLOW,
        "-F": FOLLOW,
        "--follow": FOLLOW,
        "--retry": FOLLOW,
        "--pid": FOLLOW,
      },
      strict: true,
    },
  ],
  [
    "grep",
    {
      options: {
        shortFlag: "EFGPiyvwxcLloqsbHhnTZzaIrRU",
        shortValue: "efmABCdD",
        longFlag: [
          "extended-regexp",
          "fixed-strings",
          "basic-regexp",
          "perl-regexp",
          "ignore-case",
          "no-ignore-case",
          "invert-match",
          "word-regexp",
          "line-regexp",
          "count",
          "color",
          "colour",
          "files-without-match",
          "files-with-matches",
          "only-matching",
          "quiet",
          "silent",
          "no-messages",
          "byte-offset",
          "with-filename",
          "no-filename",
          "line-number",
          "initial-tab",
          "null",
          "null-data",
          "text",
          "recursive",
          "dereference-recursive",
          "line-buffered",
          "binary",
          "help",
          "version",
        ],
        longValue: [
          "regexp",
          "file",
          "max-count",
          "after-context",
          "before-context",
          "context",
          "binary-files",
          "devices",
          "directories",
          "exclude",
          "exclude-from",
          "exclude-dir",
          "include",
          "label",
        ],
        numeric: true,
      },
      operands: "pattern-then-paths",
      pathOptions: ["-f", "--file", "--exclude-from"],
      confirm: {
        "-R": "follows symlinks while it recurses, out of the workspace",
        "--dereference-recursive": "follows symlinks while it recurses, out of the workspace",
      },
      strict: true,
    },
  ],
  [
    "wc",
    {
      options: {
        shortFlag: "cmlLw",
        longFlag: [
          "bytes",
          "chars",
          "lines",
          "max-line-length",
          "words",
          "help",
          "version",
          "total",
        ],
        longValue: ["files0-from"],
      },
      operands: "paths",
      confirm: {
        "--files0-from":
          "reads the names of the files to count from a file, names this check does not see",
      },
      strict: true,
    },
  ],
  ["echo", { options: {}, operands: "data", strict: false }],
  ["pwd", { options: { shortFlag: "LP" }, operands: "data", strict: true }],
  ["which", { options: { shortFlag: "as" }, operands: "names", strict: false }],
  ["type", { options: { shortFlag: "afptP" }, operands: "names", strict: true }],
]);

function checkFind(args: readonly Arg[], ctx: ArgvContext, run: RunArgv): void {
  const find = parseFind(args.slice(1));
  for (const start of find.starts) requestPath(ctx, start, "read", "find");
  for (const file of find.reads) requestPath(ctx, file, "read", "find");
  for (const { primary, file } of find.writes) {
    requestPath(ctx, file, "write", `find ${primary}`);
    ctx.findings.confirm(
      `\`find ${primary}\` writes the file \`${file.raw}\`; it runs in the sandbox.`,
    );
  }
  if (find.deletes) {
    for (const start of find.starts) requestPath(ctx, start, "write", "find -delete");
    ctx.findings.confirm("`find -delete` deletes every file it matches; it runs in the sandbox.");
  }
  for (const { primary, argv } of find.commands) {
    ctx.findings.confirm(
      `\`find ${primary}\` runs \`${argv[0]?.raw ?? ""}\` for every file it finds; it runs in the sandbox.`,
    );
    run(argv, { ...ctx, wrappers: [...ctx.wrappers, `find ${primary}`] });
  }
  if (find.follows)
    ctx.findings.confirm(
      "`find -L` follows symlinks out of the workspace; it runs in the sandbox.",
    );
  if (find.unknown.length > 0)
    ctx.findings.confirm(
      `\`find\` is given \`${find.unknown[0] ?? ""}\`, which is not a known safe primary; it runs in the sandbox.`,
    );
}

/**
 * Rules for the read-only programs of the default allowlist: every path argument (flag
 * values included) is queued for the workspace check; dangerous or unknown flags make the
 * command run in the sandbox instead of directly. Returns whether `name` has such rules.
 */
export function checkReader(
  name: string,
  args: readonly Arg[],
  ctx: ArgvContext,
  run: RunArgv,
): boolean {
  if (name === "find") {
    checkFind(args, ctx, run);
    return true;
  }
  const spec = SPECS.get(name);
  if (spec === undefined) return false;
  const parsed = parseOptions(args.slice(1), spec.options);
  for (const option of parsed.options) {
    const why = spec.confirm?.[option.name];
    if (why !== undefined)
      ctx.findings.confirm(`\`${name} ${option.arg.raw}\` ${why}; it runs in the sandbox.`);
    else if (!option.known && spec.strict)
      ctx.findings.confirm(
        `\`${name}\` is given \`${option.arg.raw}\`, which is not a known safe option; it runs in the sandbox.`,
      );
  }
  if (
    name === "ls" &&
    hasOption(parsed, "-L", "--dereference") &&
    hasOption(parsed, "-R", "--recursive")
  ) {
    ctx.findings.confirm("`ls -LR` follows symlinks out of the workspace; it runs in the sandbox.");
  }
  for (const file of optionValues(parsed, ...(spec.pathOptions ?? [])))
    requestPath(ctx, file, "read", `${name}`);
  // `tail +5f FILE`, the obsolete form of `-n +5 -f`, which coreutils still reads.
  if (
    name === "tail" &&
    parsed.operands.some((operand) => /^\+\d*[bckl]?[fF]$/.test(operand.value))
  )
    ctx.findings.confirm(
      `\`tail\` with an obsolete \`+...f\` operand ${FOLLOW}; it runs in the sandbox.`,
    );
  const patternGiven = hasOption(parsed, "-e", "--regexp", "-f", "--file");
  const paths =
    spec.operands === "paths"
      ? parsed.operands
      : spec.operands === "pattern-then-paths"
        ? parsed.operands.slice(patternGiven ? 0 : 1)
        : [];
  const recursive =
    name === "grep" &&
    (hasOption(parsed, "-r", "-R", "--recursive", "--dereference-recursive") ||
      // grep takes any unique prefix of the action (`-d rec`); only `read` and `skip` are
      // known not to recurse.
      optionValues(parsed, "-d", "--directories").some(
        (value) => value.value !== "read" && value.value !== "skip",
      ));
  if (recursive && paths.length === 0)
    requestPath(ctx, literalArg("."), "read", name, { recursive: true });
  for (const file of paths)
    if (file.value !== "-") requestPath(ctx, file, "read", name, { recursive });
  return true;
}

/** Operands of an allowlisted program without rules here (a custom allowlist) are checked as paths. */
export function checkCustomReader(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), {});
  for (const file of parsed.operands) requestPath(ctx, file, "read", name);
}
