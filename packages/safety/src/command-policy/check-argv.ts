import { PatternSyntaxError } from "../patterns/pattern-node.js";
import { compileShellPattern, type ShellPattern } from "../patterns/shell-pattern.js";
import { checkCustomReader, checkReader } from "./allowlist.js";
import { checkAssignment } from "./assignments.js";
import { checkUserDenylist } from "./user-denylist.js";
import { literalArg, type Arg, type ArgvContext } from "./context.js";
import { checkDenylist, DENYLISTED_NAMES, refused } from "./denylist.js";
import { isDownloaded } from "./path-arguments.js";
import { checkDestroyers } from "./destroyers.js";
import { isIndirectText } from "./code-expansions.js";
import { checkEmbedded } from "./embedded-commands.js";
import { checkEvalBuiltin } from "./eval-builtins.js";
import { checkNameSinks } from "./arithmetic-injection.js";
import { Findings } from "./findings.js";
import { checkGit } from "./git.js";
import { checkInterpreter } from "./interpreters.js";
import { checkListFiles } from "./list-files.js";
import { checkExfiltration } from "./exfiltration.js";
import { checkMetadataContact } from "./network.js";
import { checkConfigWrites } from "./config-writes.js";
import { checkTunnels, isTunnelProgram } from "./tunnels.js";
import { checkNetwork } from "./network.js";
import { normalizeProgram } from "./normalize-program.js";
import { checkShell, SHELLS } from "./shells.js";
import { isWrapper, unwrap } from "./wrappers.js";

/** Programs whose arguments are data (names, text, packages), not commands to look inside. */
const DATA_PROGRAMS = new Set([
  "echo",
  "printf",
  "man",
  "info",
  "whatis",
  "apropos",
  "help",
  "apt",
  "apt-get",
  "apt-cache",
  "dpkg",
  "yum",
  "dnf",
  "brew",
  "pip",
  "pip3",
  "which",
  "type",
  "whereis",
  "command-not-found",
]);

/** Programs a computed name is tried as: the ones whose arguments alone can be catastrophic. */
const CATASTROPHIC_CANDIDATES = ["rm", "chmod", "dd", "find", "shred"];

/** The most arguments of an unknown program searched for a hidden command. */
const SUFFIX_SCAN_LIMIT = 64;
/** The most hidden-command candidates one scan checks. */
const MAX_EMBEDDED_CHECKS = 256;

function isKnownDangerous(name: string): boolean {
  return (
    DENYLISTED_NAMES.has(name) ||
    SHELLS.has(name) ||
    isWrapper(name) ||
    CATASTROPHIC_CANDIDATES.includes(name) ||
    isTunnelProgram(name) ||
    /^mkfs\./.test(name) ||
    ["curl", "wget", "eval", "xargs", "ssh"].includes(name)
  );
}

/** Names a glob in command position (`/???/r?`) could run, among the names the rules know. */
export function globCandidates(pattern: string, allowlist: ReadonlySet<string>): string[] {
  const base = pattern.split("/").pop() ?? "";
  const known = new Set([
    ...DENYLISTED_NAMES,
    ...SHELLS,
    ...CATASTROPHIC_CANDIDATES,
    ...allowlist,
    "curl",
    "wget",
    "python3",
    "perl",
  ]);
  // bash's pattern rules ([[:alpha:]], [!x], \ escapes), matched without backtracking. A
  // pattern it cannot read could be any of them.
  let matcher: ShellPattern;
  try {
    matcher = compileShellPattern([{ text: base, quoted: false }]);
  } catch (error) {
    if (!(error instanceof PatternSyntaxError)) throw error;
    return [...known];
  }
  return [...known].filter((name) => matcher.matches(name));
}

/**
 * Searches `args` from position `from` on (at most `positions` of them) for a dangerous
 * command hidden in them (`strace rm -rf /`, tokens of unparsable text); only blocks are kept.
 */
export function scanEmbedded(
  args: readonly Arg[],
  ctx: ArgvContext,
  from = 1,
  positions = SUFFIX_SCAN_LIMIT,
): void {
  const scratch = new Findings();
  const limit = Math.min(args.length, from + positions);
  let checked = 0;
  for (let i = from; i < limit && checked < MAX_EMBEDDED_CHECKS; i++) {
    const arg = args[i];
    if (arg === undefined || !isKnownDangerous(normalizeProgram(arg.value).name)) continue;
    checked += 1;
    checkArgv(args.slice(i, i + SUFFIX_SCAN_LIMIT), { ...ctx, findings: scratch, embedded: true });
  }
  ctx.findings.merge(scratch, { blocksOnly: true });
}

/** More wrappers around one command than this are not unwrapped further. */
const MAX_WRAPPERS = 16;

function checkWrapper(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  if (ctx.wrappers.length >= MAX_WRAPPERS) {
    ctx.findings.confirm(
      `The command nests more than ${String(MAX_WRAPPERS)} wrappers; it needs confirmation.`,
    );
    // Still look at what the pile of wrappers finally runs.
    const start = args.findIndex((arg) => !isWrapper(normalizeProgram(arg.value).name));
    if (start > 0) checkArgv(args.slice(start), { ...ctx, embedded: true });
    return;
  }
  const { inner, assignments } = unwrap(args);
  ctx.findings.confirm(
    `\`${name}\` runs another program (\`${inner[0]?.raw ?? name}\`); it needs confirmation.`,
  );
  for (const { name: variable, value } of assignments) checkAssignment(variable, value, ctx);
  if (inner.length > 0) checkArgv(inner, { ...ctx, wrappers: [...ctx.wrappers, name] });
}

/**
 * Checks one argv with every program rule: normalises the program name, unwraps wrappers,
 * applies the denylist and the rules of shells, interpreters, network, writers, embedded
 * commands and readers, and asks for confirmation for anything off the allowlist.
 */
export function checkArgv(args: readonly Arg[], ctx: ArgvContext): void {
  const first = args[0];
  if (first === undefined) return;
  const program = normalizeProgram(first.value);
  const name = program.name;
  ctx.findings.program(name);
  if (program.problem !== null)
    ctx.findings.confirm(`In \`${first.raw}\`, ${program.problem}; it needs confirmation.`);
  if (isIndirectText(first.raw) && ctx.wrappers.length > 0)
    ctx.findings.block(
      refused(
        first.raw,
        "picks the program to run through an indirect expansion, which hides what runs",
      ),
    );
  if (name === "") return;
  if (program.hasPath && isDownloaded(ctx, first.value)) {
    ctx.findings.block(
      refused(first.raw, "runs a file the command just downloaded (download-and-execute)"),
    );
  }
  const denied = checkDenylist(name, args, ctx) || checkUserDenylist(name, args, ctx);
  if (isWrapper(name)) {
    checkWrapper(name, args, ctx);
    return;
  }
  checkNameSinks(name, args, ctx);
  checkListFiles(name, args, ctx);
  checkExfiltration(name, args, ctx);
  checkMetadataContact(name, args, ctx);
  checkConfigWrites(name, args, ctx);
  checkTunnels(name, args, ctx);
  const handled = [
    checkEvalBuiltin(name, args, ctx),
    checkShell(name, args, ctx),
    checkInterpreter(name, args, ctx),
    checkNetwork(name, args, ctx),
    checkDestroyers(name, args, ctx),
    checkGit(name, args, ctx, checkArgv),
    checkEmbedded(name, args, ctx, checkArgv),
    checkReader(name, args, ctx, checkArgv),
  ].some(Boolean);
  const allowlisted = ctx.policy.allowlist.has(name);
  if (allowlisted && !handled) checkCustomReader(name, args, ctx);
  if (!allowlisted) {
    ctx.findings.confirm(`\`${name}\` is not on the read-only allowlist; it needs confirmation.`);
  } else if (program.hasPath) {
    ctx.findings.confirm(
      `\`${first.raw}\` names the program by path; only bare names of allowlisted programs run unasked.`,
    );
  }
  if (!handled && !denied && !allowlisted && !DATA_PROGRAMS.has(name)) scanEmbedded(args, ctx);
}

/** The allowlist and the programs of the user's denylist: names a glob is tried against. */
function knownNames(ctx: ArgvContext): ReadonlySet<string> {
  const names = new Set(ctx.policy.allowlist);
  for (const entry of ctx.policy.userDenylist) if (entry[0] !== undefined) names.add(entry[0]);
  return names;
}

/**
 * Checks a command whose program name is computed (`$X`, `$(printf rm)`, `/???/r?`): the
 * best guess of the name gets every rule, a glob every known name it matches, and an
 * unknown name the catastrophic rules of `rm`, `chmod`, `dd`, `find`.
 */
export function checkComputedProgram(
  names: readonly string[],
  rest: readonly Arg[],
  raw: string,
  glob: boolean,
  ctx: ArgvContext,
): void {
  ctx.findings.confirm(
    `The program name \`${raw}\` is computed by the shell, so what runs cannot be known in advance; it needs confirmation.`,
  );
  if (glob || names[0] === undefined || names[0] === "") ctx.findings.program(raw);
  const guessed = names[0];
  if (glob) {
    const matches = new Findings();
    for (const candidate of globCandidates(raw, knownNames(ctx))) {
      checkArgv([literalArg(candidate), ...rest], { ...ctx, findings: matches });
    }
    ctx.findings.merge(matches, { blocksOnly: true, programs: false });
  } else if (guessed !== undefined && guessed !== "") {
    const guess = new Findings();
    const argv = [{ ...literalArg(guessed), exact: false, raw }, ...names.slice(1).map(literalArg)];
    checkArgv([...argv, ...rest], { ...ctx, findings: guess });
    ctx.findings.merge(guess, { blocksOnly: true });
  }
  const candidates = new Findings();
  for (const candidate of CATASTROPHIC_CANDIDATES) {
    checkArgv([literalArg(candidate), ...rest], { ...ctx, findings: candidates, embedded: true });
  }
  ctx.findings.merge(candidates, { blocksOnly: true, programs: false });
}
