import { checkAssignment } from "./assignments.js";
import type { Arg, ArgvContext } from "./context.js";
import { refused } from "./denylist.js";

/** Builtins that declare variables and functions. */
export const DECLARATIONS: ReadonlySet<string> = new Set([
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
]);

function flags(args: readonly Arg[]): Set<string> {
  const letters = new Set<string>();
  for (const arg of args.slice(1)) {
    if (arg.value === "--") break;
    if (/^[-+][A-Za-z]+$/.test(arg.value) && arg.value.startsWith("-"))
      for (const letter of arg.value.slice(1)) letters.add(letter);
  }
  return letters;
}

/**
 * `export -f f`, `declare -fx f`: a function exported into the environment
 * (`BASH_FUNC_f%%`) is defined in every bash the command starts, where it can replace
 * any command by name. `NAME=VALUE` arguments are checked as assignments.
 */
function checkDeclaration(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  const given = flags(args);
  if (given.has("f") && (name === "export" || given.has("x")))
    ctx.findings.block(
      refused(
        `${name} -${[...given].join("")}`,
        "exports a shell function into the environment (BASH_FUNC_), where every bash started later runs it in place of a command",
      ),
    );
  for (const arg of args.slice(1)) {
    const setting = /^([^=\s-][^=\s]*?)\+?=(.*)$/s.exec(arg.value);
    if (setting !== null) checkAssignment(setting[1] ?? "", setting[2] ?? "", ctx);
  }
  ctx.findings.confirm(`\`${name}\` declares shell variables or functions; it needs confirmation.`);
}

/** Options whose value is code the builtin runs (`mapfile -C code`, `complete -C cmd`). */
const CODE_OPTIONS: ReadonlyMap<string, { readonly letters: string; readonly why: string }> =
  new Map([
    ["mapfile", { letters: "C", why: "runs its callback text as code for every few lines read" }],
    ["readarray", { letters: "C", why: "runs its callback text as code for every few lines read" }],
    ["compgen", { letters: "CF", why: "runs a command or function to produce completions" }],
    ["complete", { letters: "C", why: "installs a command that runs on every completion" }],
    ["bind", { letters: "x", why: "binds a key to a shell command" }],
    ["enable", { letters: "f", why: "loads a shared object into the shell as a builtin" }],
    ["hash", { letters: "p", why: "makes a command name run a different program" }],
    ["fc", { letters: "es", why: "runs commands again from the history" }],
  ]);

function checkCodeOptions(name: string, args: readonly Arg[], ctx: ArgvContext): boolean {
  const spec = CODE_OPTIONS.get(name);
  if (spec === undefined) return false;
  const given = flags(args);
  const used = [...spec.letters].find((letter) => given.has(letter));
  if (used !== undefined) ctx.findings.block(refused(`${name} -${used}`, spec.why));
  ctx.findings.confirm(`\`${name}\` changes how the shell runs commands; it needs confirmation.`);
  return true;
}

/**
 * `trap CODE SIGNALS` stores CODE to run later, on a signal or on `EXIT`, `DEBUG`, `ERR`,
 * `RETURN`: text evaluated as code where no check sees it run. Resetting (`trap - INT`),
 * ignoring (`trap '' INT`) and listing (`trap -p`, `trap -l`) run nothing.
 */
function checkTrap(args: readonly Arg[], ctx: ArgvContext): void {
  const rest = args.slice(1).filter((arg) => arg.value !== "--");
  const listing = rest.some((arg) => arg.value === "-p" || arg.value === "-l");
  const action = rest[0];
  const installs =
    !listing &&
    action !== undefined &&
    rest.length > 1 &&
    action.value !== "-" &&
    (action.value.trim() !== "" || action.unknown === true);
  if (installs)
    ctx.findings.block(
      refused(
        `trap ${action.raw}`,
        "stores text to run as code later, on a signal or when the shell exits",
      ),
    );
  ctx.findings.confirm("`trap` changes how the shell handles signals; it needs confirmation.");
}

/**
 * Rules for builtins that evaluate text as code or make the shell run code later:
 * `trap`, function exports, `mapfile -C`, `complete -C`, `bind -x`, `enable -f`,
 * `hash -p`, `fc`. Returns whether `name` is one of them.
 */
export function checkEvalBuiltin(name: string, args: readonly Arg[], ctx: ArgvContext): boolean {
  if (name === "trap") {
    checkTrap(args, ctx);
    return true;
  }
  if (DECLARATIONS.has(name)) {
    checkDeclaration(name, args, ctx);
    return true;
  }
  return checkCodeOptions(name, args, ctx);
}
