import { lstatSync, readFileSync } from "node:fs";
import path from "node:path";
import { isSecretFileName } from "../protected-paths.js";
import { literalArg, type Arg, type ArgvContext } from "./context.js";
import { refused } from "./denylist.js";
import { GIT_LISTS, GIT_MESSAGE_FILES, LIST_SPECS, RESPONSE_FILES } from "./list-file-options.js";
import { parseOptions, type OptionTable } from "./option-scan.js";
import { againstCwd, requestPath } from "./path-arguments.js";

function judge(name: string, option: string, file: Arg, holds: string, ctx: ArgvContext): void {
  const shown = file.raw.startsWith(option)
    ? `${name} ${file.raw}`
    : `${name} ${option} ${file.raw}`;
  if (file.value === "-" || /^\/dev\/(?:stdin|fd\/0)$/.test(file.value)) {
    fromStdin(name, holds, ctx);
    return;
  }
  if (isSecretFileName(file.value)) {
    ctx.findings.block(
      refused(
        shown,
        `reads ${holds} from a file that holds secrets, which ends up in output and errors`,
      ),
    );
  }
  requestPath(ctx, file, "read", `${name} ${option}`, "block", false, "block");
  ctx.findings.confirm(
    `\`${shown}\` reads ${holds} from a file whose contents the check cannot see; it needs confirmation.`,
  );
  const listed = readListFile(ctx, file);
  if (listed !== null) checkListed(name, listed, ctx);
}

/** Most of a list file that is read to check the paths it names. */
const MAX_LIST_BYTES = 64 * 1024;

/**
 * The entries of a list file the command will read, when the check can know them: a
 * plain regular file inside the workspace, small, and not written earlier in the same
 * command. Null otherwise (the command stays at confirm).
 */
function readListFile(ctx: ArgvContext, file: Arg): string[] | null {
  if (!file.exact || ctx.embedded) return null;
  const target = againstCwd(ctx, file.value);
  if (ctx.findings.paths.some((request) => request.access === "write" && request.path === target))
    return null;
  const absolute = path.resolve(ctx.policy.root, target);
  const relative = path.relative(ctx.policy.root, absolute);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return null;
  try {
    const stats = lstatSync(absolute);
    if (!stats.isFile() || stats.size > MAX_LIST_BYTES) return null;
    return readFileSync(absolute, "utf8")
      .split(/[\0\n]/)
      .filter((line) => line.trim() !== "");
  } catch {
    return null;
  }
}

/** Names a list holds are paths the command reads: outside or secret ones block. */
function checkListed(name: string, entries: readonly string[], ctx: ArgvContext): void {
  if (entries.length > 64) {
    ctx.findings.confirm(`\`${name}\` reads a list of more than 64 names; it needs confirmation.`);
  }
  for (const entry of entries.slice(0, 64))
    requestPath(ctx, { ...literalArg(entry), exact: true }, "read", name, "block", false, "block");
}

/** A list read from standard input: the names it holds are checked when the input is known. */
function fromStdin(name: string, holds: string, ctx: ArgvContext): void {
  ctx.findings.confirm(
    `\`${name}\` reads ${holds} from its standard input, which the check cannot see; it needs confirmation.`,
  );
  const text = ctx.stdin.text;
  if (text === null || ctx.stdin.kind === "none") return;
  for (const entry of text
    .split(/[\0\n]/)
    .filter((line) => line.trim() !== "")
    .slice(0, 64))
    requestPath(ctx, { ...literalArg(entry), exact: false }, "read", name);
}

function checkGit(args: readonly Arg[], ctx: ArgvContext): void {
  const values = args.map((arg) => arg.value);
  const subcommand = values.slice(1).find((value) => !value.startsWith("-"));
  args.forEach((arg, index) => {
    const [flag = "", inline] = arg.value.split(/=(.*)/s);
    const next = args[index + 1];
    const value = inline !== undefined ? { ...arg, value: inline } : next;
    const holds =
      GIT_LISTS.get(flag) ??
      (GIT_MESSAGE_FILES.has(subcommand ?? "") && (flag === "-F" || flag === "--file")
        ? "the message to record"
        : subcommand === "grep" && (flag === "-f" || flag === "--file")
          ? "patterns"
          : undefined);
    if (holds !== undefined && value !== undefined)
      judge(`git ${subcommand ?? ""}`.trim(), flag, value, holds, ctx);
  });
}

/**
 * `tar cfT a.tar list`: old-style options are one word of letters, and each letter that
 * takes a value takes the next argument in turn. Rewritten as `-c -f a.tar -T list`.
 */
function oldStyleTar(args: readonly Arg[]): Arg[] {
  const first = args[1];
  if (first === undefined || !/^[A-Za-z]+$/.test(first.value)) return args.slice(1);
  const rest = args.slice(2);
  const options: Arg[] = [];
  for (const letter of first.value) {
    options.push({ ...first, value: `-${letter}` });
    if ("bCfFgHIKLNTVX".includes(letter)) {
      const value = rest.shift();
      if (value !== undefined) options.push(value);
    }
  }
  return [...options, ...rest];
}

/**
 * Rules for options that read a list of paths, patterns, arguments or data from a file
 * or standard input (see {@link LIST_SPECS}): the file's contents never pass the path
 * checks, so such a command is never `allow`; a secret-looking list file blocks (its
 * contents end up in output and errors), and so does one outside the workspace. Names
 * listed on standard input that the check can see are checked as paths.
 */
export function checkListFiles(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  if (name === "git") {
    checkGit(args, ctx);
    return;
  }
  if (name === "find") {
    args.forEach((arg, index) => {
      const file = args[index + 1];
      if (arg.value === "-files0-from" && file !== undefined)
        judge(name, arg.value, file, "the starting points of its search", ctx);
    });
    return;
  }
  if (name === "jq") {
    args.forEach((arg, index) => {
      const file = /^--(?:rawfile|slurpfile)$/.test(arg.value)
        ? args[index + 2]
        : /^(?:-f|--from-file)$/.test(arg.value)
          ? args[index + 1]
          : undefined;
      if (file !== undefined) judge(name, arg.value, file, "a program or data", ctx);
    });
    return;
  }
  if (RESPONSE_FILES.has(name)) {
    for (const arg of args.slice(1).filter((candidate) => /^@./.test(candidate.value)))
      judge(name, "@", { ...arg, value: arg.value.slice(1) }, "more arguments", ctx);
    return;
  }
  if (name === "7z" || name === "7za" || name === "7zz") {
    for (const arg of args.slice(1)) {
      const list = /^(?:-[ix]r?[-0]?)?@(.+)$/.exec(arg.value);
      if (list !== null)
        judge(
          name,
          "@",
          { ...arg, value: list[1] ?? "" },
          "the names of the files to archive",
          ctx,
        );
    }
    return;
  }
  const spec = LIST_SPECS.get(name);
  if (spec === undefined) return;
  const table: OptionTable = {
    shortValue: spec.shortValue ?? "",
    longValue:
      spec.longValue ??
      spec.lists.filter((list) => list.startsWith("--")).map((list) => list.slice(2)),
    stopAtOperand: spec.stopAtOperand === true,
  };
  const given =
    name === "tar"
      ? oldStyleTar(args)
      : args.slice(1).filter((arg) => name !== "zip" || !/^-[ix]@/.test(arg.value));
  const parsed = parseOptions(given, table);
  for (const option of parsed.options) {
    if (spec.lists.includes(option.name) && option.value !== null)
      judge(name, option.name, option.value, spec.holds, ctx);
    if ((spec.stdinModes ?? []).includes(option.name)) fromStdin(name, spec.holds, ctx);
  }
  const mode = parsed.options.find((option) => (spec.listOperandsWith ?? []).includes(option.name));
  if (mode !== undefined) {
    if (parsed.operands.length === 0) fromStdin(name, spec.holds, ctx);
    for (const file of parsed.operands) judge(name, mode.name, file, spec.holds, ctx);
  }
  if (name === "zip") {
    for (const arg of args.slice(1)) {
      const list = /^-[ix]@(.+)$/.exec(arg.value);
      if (list !== null)
        judge(name, arg.value.slice(0, 3), { ...arg, value: list[1] ?? "" }, "patterns", ctx);
    }
  }
  if (name === "parallel") {
    const at = args.findIndex((arg) => arg.value === "::::");
    for (const file of at === -1
      ? []
      : args.slice(at + 1).filter((arg) => !arg.value.startsWith(":")))
      judge(name, "::::", file, spec.holds, ctx);
  }
}
