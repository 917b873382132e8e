import { scanCode } from "./code-scan.js";
import type { Arg, ArgvContext } from "./context.js";
import { refused } from "./denylist.js";
import { requestPath } from "./path-arguments.js";
import { checkScriptFile, checkStdinScript } from "./shells.js";

/** How one interpreter takes code from its arguments. */
interface InterpreterSpec {
  /** Short options whose value is code (`-c`, `-e`, `-r`). */
  readonly code: string;
  /** Long options whose value is code (`--eval`). */
  readonly codeLong?: readonly string[];
  /** Short options whose value is something else; the value is the rest of the cluster or the next argument. */
  readonly value?: string;
  /** Short options that take only an attached value (`perl -i.bak`, `-Mstrict`). */
  readonly attached?: string;
  /** The program text is the first operand (awk). */
  readonly programOperand?: boolean;
}

const SPECS: ReadonlyMap<string, InterpreterSpec> = new Map([
  ["python", { code: "c", value: "mWXQ" }],
  ["perl", { code: "eE", value: "", attached: "ilx0IMmFCdD" }],
  ["ruby", { code: "e", value: "rICE", attached: "ilx0WTK" }],
  ["node", { code: "ep", codeLong: ["--eval", "--print"], value: "r" }],
  ["bun", { code: "e", codeLong: ["--eval", "--print"], value: "r" }],
  ["php", { code: "rBRE", value: "cdfzt" }],
  ["lua", { code: "e", value: "l" }],
  ["rscript", { code: "e" }],
  ["osascript", { code: "e" }],
  ["pwsh", { code: "c", codeLong: ["-command", "-c", "--command"] }],
  ["awk", { code: "e", codeLong: ["--source"], value: "fvF", programOperand: true }],
  ["tclsh", { code: "" }],
  ["deno", { code: "" }],
  // `emacs --batch --eval '(shell-command "...")'`: Lisp, whose strings are checked as commands.
  ["emacs", { code: "", codeLong: ["--eval", "-eval", "--execute"], value: "lfLdt" }],
]);

/** The interpreter family of a program name (`python3.12` → `python`), or null. */
export function interpreterFamily(name: string): string | null {
  const lower = name.toLowerCase();
  if (/^python[0-9.]*$|^pypy[0-9.]*$/.test(lower)) return "python";
  if (/^perl[0-9.]*$/.test(lower)) return "perl";
  if (/^ruby[0-9.]*$|^irb$/.test(lower)) return "ruby";
  if (lower === "node" || lower === "nodejs") return "node";
  if (/^php[0-9.]*$/.test(lower)) return "php";
  if (/^lua(?:jit|[0-9.]*)$/.test(lower)) return "lua";
  if (/^[gmn]?awk$/.test(lower)) return "awk";
  if (lower === "powershell" || lower === "pwsh") return "pwsh";
  if (lower === "wish") return "tclsh";
  return SPECS.has(lower) ? lower : null;
}

interface Found {
  readonly code: { flag: string; arg: Arg }[];
  readonly script: Arg | undefined;
}

function findCode(args: readonly Arg[], spec: InterpreterSpec, family: string): Found {
  const code: { flag: string; arg: Arg }[] = [];
  let i = 1;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (arg === undefined) break;
    const text = arg.value;
    if (text === "--" || text === "-") {
      i += text === "--" ? 1 : 0;
      break;
    }
    const lower = text.toLowerCase();
    if (family === "pwsh" && /^-(?:e|ec|enc|encodedcommand)$/.test(lower)) {
      code.push({ flag: text, arg: { ...arg, value: "base64-encoded", substituted: true } });
      i += 1;
      continue;
    }
    const long = (spec.codeLong ?? []).find(
      (name) => lower === name || lower.startsWith(`${name}=`),
    );
    if (long !== undefined) {
      const value = lower === long ? args[++i] : { ...arg, value: text.slice(long.length + 1) };
      if (value !== undefined) code.push({ flag: long, arg: value });
      continue;
    }
    if (text.startsWith("--")) continue;
    if (!text.startsWith("-")) break;
    for (let j = 1; j < text.length; j++) {
      const letter = text.charAt(j);
      const rest = text.slice(j + 1);
      if (spec.code.includes(letter) || (spec.value ?? "").includes(letter)) {
        const value = rest !== "" ? { ...arg, value: rest } : args[++i];
        if (spec.code.includes(letter) && value !== undefined)
          code.push({ flag: `-${letter}`, arg: value });
        break;
      }
      if ((spec.attached ?? "").includes(letter)) break;
    }
  }
  const first = args[i];
  if (
    spec.programOperand === true &&
    code.length === 0 &&
    !args.slice(1, i).some((arg) => /^-[^-]*f/.test(arg.value))
  ) {
    return {
      code: first === undefined ? [] : [{ flag: "program", arg: first }],
      script: undefined,
    };
  }
  if (family === "deno" && first?.value === "eval") {
    const source = args[i + 1];
    return { code: source === undefined ? [] : [{ flag: "eval", arg: source }], script: undefined };
  }
  return { code, script: code.length === 0 && first?.value !== "-" ? first : undefined };
}

/**
 * `perl -pi -e …`, `ruby -i -pe …`, `gawk -i inplace …`: the file operands are rewritten in
 * place, so they are checked as writes (protected files and places outside block).
 */
function checkInPlace(
  name: string,
  family: string,
  args: readonly Arg[],
  found: Found,
  ctx: ArgvContext,
): void {
  const options = args.slice(1).filter((arg) => arg.value.startsWith("-"));
  const inPlace =
    family === "awk"
      ? args.some(
          (arg, index) =>
            (/^(?:-i|--include)$/.test(arg.value) &&
              /^inplace/.test(args[index + 1]?.value ?? "")) ||
            /^(?:-iinplace|--include=inplace)/.test(arg.value),
        )
      : (family === "perl" || family === "ruby") &&
        options.some((arg) => /^-[a-zA-Z0-9]*i/.test(arg.value) && !arg.value.startsWith("--"));
  if (!inPlace) return;
  const code = new Set(found.code.map((entry) => entry.arg));
  const files = args
    .slice(1)
    .filter((arg) => !arg.value.startsWith("-") && !code.has(arg) && !/^inplace/.test(arg.value));
  const targets = found.code.length > 0 ? files : files.slice(1);
  for (const file of targets) requestPath(ctx, file, "write", `${name} -i`);
  ctx.findings.confirm(`\`${name}\` edits files in place; it needs confirmation.`);
}

/**
 * Rules for interpreters that run code from their arguments (`python -c`, `node -e`,
 * `perl -e`, `ruby -e`, `php -r`, awk programs): never plain; code computed by a
 * substitution or visibly dangerous blocks. Returns whether `name` is an interpreter.
 */
export function checkInterpreter(name: string, args: readonly Arg[], ctx: ArgvContext): boolean {
  const family = interpreterFamily(name);
  const spec = family === null ? undefined : SPECS.get(family);
  if (family === null || spec === undefined) return false;
  const found = findCode(args, spec, family);
  checkInPlace(name, family, args, found, ctx);
  for (const { flag, arg } of found.code) {
    const label = `${name} ${flag}`;
    if (arg.substituted)
      ctx.findings.block(
        refused(label, "runs code produced by a command substitution or an encoding"),
      );
    else if (arg.opaque === true)
      ctx.findings.block(
        refused(label, "runs code held in a variable (like eval), text no check can see"),
      );
    else scanCode(arg.value, label, ctx);
  }
  if (found.code.length > 0) {
    ctx.findings.confirm(
      `\`${name} ${found.code[0]?.flag ?? ""}\` runs inline code that a command check cannot see into; it needs confirmation.`,
    );
    return true;
  }
  const script = found.script;
  if (script !== undefined) {
    checkScriptFile(name, script, ctx);
    ctx.findings.confirm(`\`${name}\` runs the program \`${script.raw}\`; it needs confirmation.`);
    return true;
  }
  checkStdinScript(name, ctx, false);
  if (ctx.stdin.text !== null) scanCode(ctx.stdin.text, name, ctx);
  ctx.findings.confirm(`\`${name}\` runs code from its input; it needs confirmation.`);
  return true;
}
