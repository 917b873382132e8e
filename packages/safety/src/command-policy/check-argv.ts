import { checkCustomReader, checkReader } from "./allowlist.js";
import type { Arg, ArgvContext } from "./context.js";
import { checkForbidden } from "./forbidden-rules.js";
import { checkGit } from "./git.js";
import { checkNetworkNeed } from "./network-needs.js";
import { normalizeProgram } from "./normalize-program.js";
import { pathLike, requestPath } from "./path-arguments.js";
import { checkShell } from "./shells.js";
import { checkUserDenylist } from "./user-denylist.js";
import { isWrapper, unwrap } from "./wrappers.js";

/** More wrappers around one command than this are not unwrapped further. */
const MAX_WRAPPERS = 16;

/**
 * The words of a program the check does not know are checked as places, in case they are:
 * outside the workspace (and hidden from the sandbox) or secret, they escalate. Words that
 * do not look like paths are left to the sandbox.
 */
function checkUnknownArguments(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  for (const arg of args.slice(1)) {
    const candidate = arg.known ? pathLike(arg.value) : null;
    if (candidate !== null) requestPath(ctx, { ...arg, value: candidate }, "read", name);
  }
}

function checkWrapper(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  if (ctx.wrappers.length >= MAX_WRAPPERS) {
    ctx.findings.incomplete(
      `The command nests more than ${String(MAX_WRAPPERS)} wrappers, too many to analyse`,
    );
    return;
  }
  const inner = unwrap(args);
  // `env` alone prints the environment (which the command gets sanitised), as `printenv` does.
  if (name === "env" && args.length === 1 && ctx.policy.allowlist.has(name)) return;
  ctx.findings.confirm(`\`${name}\` runs another program (\`${inner[0]?.raw ?? name}\`)`);
  if (inner.length > 0) checkArgv(inner, { ...ctx, wrappers: [...ctx.wrappers, name] });
}

/**
 * Checks one argv: normalises the program name, applies the forbidden rules and the user's
 * deny list, unwraps wrappers, analyses shell scripts given as text, and records what the
 * command needs (network, `.git` writes, places outside the workspace, secrets). Anything off
 * the read-only allowlist runs in the sandbox.
 */
export function checkArgv(args: readonly Arg[], ctx: ArgvContext): void {
  const first = args[0];
  if (first === undefined) return;
  const program = normalizeProgram(first.value);
  const name = program.name;
  ctx.findings.program(name);
  if (program.problem !== null) ctx.findings.confirm(`In \`${first.raw}\`, ${program.problem}`);
  if (name === "") return;
  if (/^(?:cd|pushd|popd)$/.test(name))
    ctx.findings.confirm(`\`${name}\` changes the directory later commands run in`);
  checkForbidden(name, args, ctx);
  checkUserDenylist(name, args, ctx);
  if (isWrapper(name)) {
    checkWrapper(name, args, ctx);
    return;
  }
  const network = checkNetworkNeed(name, args, ctx);
  const handled =
    checkShell(name, args, ctx) ||
    checkGit(name, args, ctx) ||
    checkReader(name, args, ctx, checkArgv);
  const allowlisted = ctx.policy.allowlist.has(name) || name === "git";
  if (ctx.policy.allowlist.has(name) && !handled) checkCustomReader(name, args, ctx);
  if (!allowlisted) ctx.findings.confirm(`\`${name}\` is not a read-only program this check knows`);
  else if (program.hasPath)
    ctx.findings.confirm(
      `\`${first.raw}\` names the program by path; only bare names run directly, others in the sandbox.`,
    );
  if (!handled && !network) checkUnknownArguments(name, args, ctx);
}

/**
 * Checks a command whose program name is computed (`$X`, `$(printf rm)`, `/???/r?`): what
 * runs cannot be known, so it runs in the sandbox. Its other words are still checked as
 * places, and as a command of their own (`$EMPTY sudo id` runs `sudo id`).
 */
export function checkComputedProgram(raw: string, rest: readonly Arg[], ctx: ArgvContext): void {
  ctx.findings.confirm(`The shell computes the program name \`${raw}\`: what runs is unknown`);
  ctx.findings.program(raw);
  checkUnknownArguments(raw, [{ value: raw, known: false, plain: false, raw }, ...rest], ctx);
  if (rest[0]?.known === true) checkArgv(rest, ctx);
}
