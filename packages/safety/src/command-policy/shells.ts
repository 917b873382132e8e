import type { Arg, ArgvContext } from "./context.js";

/** Shells: with `-c` they run their argument as a script. */
export const SHELLS: ReadonlySet<string> = new Set(
  "sh bash dash zsh ksh mksh ash fish csh tcsh yash posh rbash".split(" "),
);

/** Merges the analysis of a script found inside another command (`bash -c '…'`, `eval …`). */
export function analyzeNestedScript(
  script: string,
  ctx: ArgvContext,
  positional?: readonly (string | null)[],
): void {
  ctx.findings.merge(ctx.policy.nested(script, ctx.depth + 1, positional, ctx.cwd));
}

/** The script operand of `sh -c SCRIPT [ARG0 ARGS…]`, with its positional arguments. */
function commandScript(args: readonly Arg[]): { script?: Arg; positional: Arg[] } | null {
  for (let i = 1; i < args.length; i++) {
    const value = args[i]?.value ?? "";
    if (value === "--" || !/^[-+][A-Za-z]+$/.test(value)) return null;
    if (value.startsWith("-") && value.includes("c")) {
      const script = args[i + 1];
      return { ...(script === undefined ? {} : { script }), positional: args.slice(i + 2) };
    }
    if (/[oO]/.test(value)) i += 1;
  }
  return null;
}

/**
 * Shells and `eval`: a script given as text (`bash -c '…'`, `eval '…'`) is analysed like the
 * command itself, so what it needs escalates and what is forbidden stays forbidden. A script
 * the check cannot read (a computed one, a file, standard input) runs in the sandbox, where
 * it can do no more than any other sandboxed command. Returns whether `name` runs shell code.
 */
export function checkShell(name: string, args: readonly Arg[], ctx: ArgvContext): boolean {
  if (name === "eval") {
    ctx.findings.confirm("`eval` runs text as shell code");
    if (args.slice(1).every((arg) => arg.known))
      analyzeNestedScript(
        args
          .slice(1)
          .map((arg) => arg.value)
          .join(" "),
        ctx,
      );
    return true;
  }
  if (name === "source" || name === ".") {
    ctx.findings.confirm(`\`${name}\` runs a script in the shell`);
    return true;
  }
  if (!SHELLS.has(name)) return false;
  ctx.findings.confirm(`\`${name}\` runs shell code`);
  const command = commandScript(args);
  if (command?.script?.known === true)
    analyzeNestedScript(command.script.value, ctx, [
      command.positional[0]?.value ?? name,
      ...command.positional.slice(1).map((arg) => (arg.known ? arg.value : null)),
    ]);
  return true;
}
