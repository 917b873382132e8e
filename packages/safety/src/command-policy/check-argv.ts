import { checkCustomReader, checkReader } from "./allowlist.js";
import { literalArg, type Arg, type ArgvContext } from "./context.js";
import { checkForbidden } from "./forbidden-rules.js";
import { checkGit } from "./git.js";
import { checkNetworkNeed } from "./network-needs.js";
import { normalizeProgram } from "./normalize-program.js";
import { requestPath } from "./path-arguments.js";
import { checkShell } from "./shells.js";
import { checkUserDenylist } from "./user-denylist.js";
import { isWrapper, unwrap } from "./wrappers.js";

/** More wrappers around one command than this are not unwrapped further. */
const MAX_WRAPPERS = 16;

/**
 * Words of a program the check does not know that name a place by themselves: an absolute
 * path, `~…`, `..` steps, or a secret-looking name (`.env`). `--out=/srv/x` counts by its
 * value. URLs and words with spaces are left alone.
 */
function pathLike(value: string): string | null {
  const candidate = /^--?[A-Za-z][\w-]*=(.*)$/s.exec(value)?.[1] ?? value;
  if (candidate === "" || candidate.includes("://") || /\s/.test(candidate)) return null;
  if (/^(?:\/|~|\.\.(?:\/|$))/.test(candidate) || /(?:^|\/)\.\.(?:\/|$)/.test(candidate))
    return candidate;
  return /^\.[^./]/.test(candidate.split("/").pop() ?? "") ? candidate : null;
}

/**
 * The words of a program the check does not know are checked as places, in case they are:
 * outside the workspace (and hidden from the sandbox) or secret, they escalate. Words that
 * do not look like paths are left to the sandbox.
 */
function checkUnknownArguments(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  for (const arg of args.slice(1)) {
    if (arg.glob || arg.substituted || arg.unknown === true) continue;
    const candidate = pathLike(arg.value);
    if (candidate !== null)
      requestPath(ctx, { ...arg, value: candidate }, "read", name, { guessed: true });
  }
}

function checkWrapper(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  if (ctx.wrappers.length >= MAX_WRAPPERS) {
    ctx.findings.incomplete(
      `The command nests more than ${String(MAX_WRAPPERS)} wrappers, too many to analyse; a person decides.`,
    );
    return;
  }
  const { inner } = unwrap(args);
  ctx.findings.confirm(
    `\`${name}\` runs another program (\`${inner[0]?.raw ?? name}\`); it runs in the sandbox.`,
  );
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
  if (program.problem !== null)
    ctx.findings.confirm(`In \`${first.raw}\`, ${program.problem}; it runs in the sandbox.`);
  if (name === "") return;
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
  if (!allowlisted)
    ctx.findings.confirm(
      `\`${name}\` is not a read-only program this check knows; it runs in the sandbox.`,
    );
  else if (program.hasPath)
    ctx.findings.confirm(
      `\`${first.raw}\` names the program by path; only bare names run directly, others in the sandbox.`,
    );
  if (!handled && !network) checkUnknownArguments(name, args, ctx);
}

/**
 * Checks a command whose program name is computed (`$X`, `$(printf rm)`, `/???/r?`): what
 * runs cannot be known, so it runs in the sandbox; the best guess of the name is checked
 * too, so a guess that is forbidden or needs the network says so.
 */
export function checkComputedProgram(
  names: readonly string[],
  rest: readonly Arg[],
  raw: string,
  ctx: ArgvContext,
): void {
  ctx.findings.confirm(
    `The program name \`${raw}\` is computed by the shell, so what runs cannot be known in advance; it runs in the sandbox.`,
  );
  const guessed = names[0];
  if (guessed === undefined || guessed === "") {
    ctx.findings.program(raw);
    return;
  }
  const argv = [{ ...literalArg(guessed), exact: false, raw }, ...names.slice(1).map(literalArg)];
  checkArgv([...argv, ...rest], ctx);
}
