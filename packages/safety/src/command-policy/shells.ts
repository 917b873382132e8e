import type { Arg, ArgvContext } from "./context.js";
import { refused } from "./denylist.js";
import { isDownloaded, requestPath } from "./path-arguments.js";

/** Shells: with `-c` they run their argument as a script, without one they run standard input. */
export const SHELLS: ReadonlySet<string> = new Set([
  "sh",
  "bash",
  "dash",
  "zsh",
  "ksh",
  "mksh",
  "pdksh",
  "oksh",
  "ash",
  "fish",
  "csh",
  "tcsh",
  "yash",
  "posh",
  "rbash",
]);

/** Options of a shell invocation. */
interface ShellArgs {
  /** `-c` given: the first operand is a script. */
  readonly command: boolean;
  /** `-s` given: the script is read from standard input even with operands. */
  readonly stdin: boolean;
  readonly operand: Arg | undefined;
  /** `--rcfile FILE`, `--init-file FILE`: a startup file the shell runs first. */
  readonly rcfile: Arg | undefined;
  /** The arguments after the operand: `$1`, `$2`, … of a `-c` script (`$0` first). */
  readonly positional: readonly string[];
}

function parseShellArgs(args: readonly Arg[]): ShellArgs {
  let command = false;
  let stdin = false;
  let rcfile: Arg | undefined;
  let i = 1;
  for (; i < args.length; i++) {
    const value = args[i]?.value ?? "";
    if (value === "--" || value === "-") {
      i += 1;
      break;
    }
    if (value.startsWith("--")) {
      if (value === "--rcfile" || value === "--init-file") rcfile = args[++i];
      continue;
    }
    if (!/^[-+][A-Za-z]+$/.test(value)) break;
    const letters = value.slice(1);
    if (value.startsWith("-") && letters.includes("c")) command = true;
    if (letters.includes("s")) stdin = true;
    if (letters.includes("o") || letters.includes("O")) i += 1;
  }
  return {
    command,
    stdin,
    rcfile,
    operand: args[i],
    positional: args.slice(i + 1).map((arg) => arg.value),
  };
}

/** Script paths that are standard input in disguise. */
const STDIN_PATHS = /^(?:-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;
/** Script paths that are another file descriptor the command itself fills (`3<<< "$x"`). */
const DESCRIPTOR_PATHS = /^\/(?:dev\/fd|proc\/(?:self|thread-self|\d+)\/fd)\/\d+$/;

/**
 * Checks the script file a shell or interpreter runs: one produced by a substitution
 * (`bash <(curl …)`) or downloaded earlier in the same command blocks.
 */
export function checkScriptFile(name: string, script: Arg, ctx: ArgvContext): void {
  if (script.substituted) {
    ctx.findings.block(refused(`${name} ${script.raw}`, "runs code produced by another command"));
  } else if (DESCRIPTOR_PATHS.test(script.value)) {
    ctx.findings.block(
      refused(
        `${name} ${script.raw}`,
        "runs code from a file descriptor the command fills itself, text no check sees",
      ),
    );
  } else if (isDownloaded(ctx, script.value)) {
    ctx.findings.block(
      refused(
        `${name} ${script.raw}`,
        "runs a file the command just downloaded (download-and-execute)",
      ),
    );
  } else {
    requestPath(ctx, script, "read", name, "confirm");
  }
}

/** Merges the analysis of a script found inside another command. */
export function analyzeNestedScript(
  script: string,
  ctx: ArgvContext,
  positional?: readonly string[],
): void {
  const mode = ctx.embedded ? "literal" : "script";
  const nested = ctx.policy.nested(script, ctx.depth + 1, mode, positional, ctx.cwd);
  ctx.findings.merge(nested, { blocksOnly: ctx.embedded });
}

/** What a shell or interpreter does with a script it reads from standard input. */
export function checkStdinScript(name: string, ctx: ArgvContext, isShell: boolean): void {
  const { stdin } = ctx;
  if (stdin.opaque === true) {
    ctx.findings.block(
      refused(name, "runs text held in a variable as code (like eval), text no check can see"),
    );
  } else if (stdin.kind === "pipe" && (isShell || stdin.computed)) {
    const from = stdin.upstream.length > 0 ? ` from \`${stdin.upstream.join(" | ")}\`` : "";
    const into = isShell ? "a shell" : `\`${name}\``;
    ctx.findings.block(
      refused(
        `| ${name}`,
        `pipes ${isShell ? "text" : "downloaded or decoded text"}${from} into ${into}, which runs it unseen`,
      ),
    );
  } else if (stdin.computed) {
    ctx.findings.block(
      refused(name, "runs code produced by a command (download-and-execute or decode-into-shell)"),
    );
  } else if (
    (stdin.kind === "heredoc" || stdin.kind === "herestring") &&
    stdin.text !== null &&
    isShell
  ) {
    analyzeNestedScript(stdin.text, ctx);
  }
}

/**
 * Rules for shells (`sh`, `bash -c`, `zsh -c`, `source`, `.`): a `-c` script is parsed and
 * checked recursively, code from a substitution or a pipe blocks, anything else needs
 * confirmation. Returns whether `name` is a shell.
 */
export function checkShell(name: string, args: readonly Arg[], ctx: ArgvContext): boolean {
  if (name === "source" || name === ".") {
    const script = args[1];
    if (script !== undefined && STDIN_PATHS.test(script.value)) checkStdinScript(name, ctx, true);
    else if (script !== undefined) checkScriptFile(name, script, ctx);
    ctx.findings.confirm(`\`${name}\` runs a script in the shell; it needs confirmation.`);
    return true;
  }
  if (!SHELLS.has(name)) return false;
  if (ctx.wrappers.includes("exec"))
    ctx.findings.block(refused(`exec ${name}`, "replaces the process with a shell"));
  const parsed = parseShellArgs(args);
  const operand = parsed.operand;
  if (parsed.rcfile !== undefined) checkScriptFile(name, parsed.rcfile, ctx);
  if (parsed.command) {
    if (operand === undefined) {
      ctx.findings.confirm(`\`${name} -c\` is given no script; it needs confirmation.`);
    }
    ctx.findings.confirm(`\`${name} -c\` runs a shell script; it needs confirmation.`);
    if (operand?.substituted === true) {
      ctx.findings.block(
        refused(`${name} -c ${operand.raw}`, "runs code produced by a command substitution"),
      );
    } else if (operand?.opaque === true) {
      ctx.findings.block(
        refused(
          `${name} -c ${operand.raw}`,
          "runs text held in a variable as shell code (like eval), text no check can see",
        ),
      );
    } else if (operand !== undefined) {
      analyzeNestedScript(operand.value, ctx, parsed.positional);
    }
    return true;
  }
  if (operand !== undefined && !parsed.stdin && !STDIN_PATHS.test(operand.value)) {
    checkScriptFile(name, operand, ctx);
    ctx.findings.confirm(`\`${name}\` runs the script \`${operand.raw}\`; it needs confirmation.`);
    return true;
  }
  checkStdinScript(name, ctx, true);
  ctx.findings.confirm(`\`${name}\` starts a shell; it needs confirmation.`);
  return true;
}
