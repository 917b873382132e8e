import type { Arg, ArgvContext } from "./context.js";
import { requestPath } from "./path-arguments.js";

const BODY = String.raw`(?:[^/\\\n]|\\[^\n])*`;
const ADDRESS = String.raw`(?:\d+~\d+|\d+|\$|/${BODY}/[IM]?)`;
/**
 * One sed command that only prints or edits what it prints: an optional address or range,
 * then `p P l = d n N`, `q`/`Q` with an exit code, or `s/…/…/` with the flags `g p i I m M`
 * and a number; never `w`, `W`, `r`, `R`, `e`, `F`, `v`, `s///w` or `s///e`.
 */
const SED_COMMAND = new RegExp(
  String.raw`[ \t]*(?:${ADDRESS}(?:[ \t]*,[ \t]*(?:${ADDRESS}|[+~]\d+))?)?[ \t]*!?[ \t]*` +
    String.raw`(?:[pPl=dnN]|[qQ]\d*|s/${BODY}/${BODY}/[gpiImM\d]*)[ \t]*(?:[;\n]|$)`,
  "y",
);

/** Whether a sed script is only print commands (see {@link SED_COMMAND}). */
export function checkSedScript(script: string): boolean {
  let at = 0;
  while (at < script.length) {
    SED_COMMAND.lastIndex = at;
    if (SED_COMMAND.exec(script) === null || SED_COMMAND.lastIndex === at) return false;
    at = SED_COMMAND.lastIndex;
  }
  return script.trim() !== "";
}

/** jq flags (short letters may be combined: `-rc`). */
const JQ_FLAGS =
  /^(?:-[nrjacCMSsReh0]+|--(?:null-input|raw-output|raw-output0|join-output|ascii-output|compact-output|color-output|monochrome-output|sort-keys|slurp|raw-input|exit-status|tab|stream|stream-errors|seq|unbuffered|help|version))$/;

/**
 * jq: its programs compute only, but some options read files: `--slurpfile NAME FILE`,
 * `--rawfile NAME FILE` and the input files are paths; `-L DIR` only matters for modules,
 * and a program that loads modules (`import`, `include`) or comes from a file (`-f`) is
 * not provably read-only. `--args` and `--jsonargs` make the operands after the program
 * strings. Any other option keeps it from running directly.
 */
export function checkJq(args: readonly Arg[], ctx: ArgvContext): void {
  const confirm = (why: string) => ctx.findings.confirm(`\`jq\` ${why}`);
  const operands: Arg[] = [];
  let strings = false;
  let fromFile = false;
  for (let i = 1; i < args.length; i++) {
    const arg = args[i] as Arg;
    const value = arg.value;
    if (!value.startsWith("-") || value === "-") operands.push(arg);
    else if (value === "--") {
      operands.push(...args.slice(i + 1));
      break;
    } else if (value === "--arg" || value === "--argjson") i += 2;
    else if (value === "--slurpfile" || value === "--rawfile") {
      const file = args[i + 2];
      if (file !== undefined) requestPath(ctx, file, "read", "jq");
      i += 2;
    } else if (value === "--indent") i += 1;
    else if (value === "-L" || value === "--library-path") {
      const directory = args[++i];
      if (directory !== undefined) requestPath(ctx, directory, "list", "jq");
    } else if (value === "--args" || value === "--jsonargs") strings = true;
    else if (value === "-f" || value === "--from-file") {
      confirm("reads its program from a file this check does not see");
      fromFile = true;
    } else if (!JQ_FLAGS.test(value))
      confirm(`is given \`${arg.raw}\`, which is not a known safe option`);
  }
  const program = fromFile ? undefined : operands[0];
  const files = fromFile ? operands : operands.slice(1);
  if (program !== undefined && (!program.known || /\b(?:import|include)\b/.test(program.value)))
    confirm("is given a program that loads modules from files");
  if (!strings)
    for (const file of files) if (file.value !== "-") requestPath(ctx, file, "read", "jq");
}
