import type { Arg, ArgvContext, RunArgv } from "./context.js";
import { literalArg } from "./context.js";
import { optionValues, parseOptions } from "./option-scan.js";
import { requestPath } from "./path-arguments.js";
import { analyzeNestedScript } from "./shells.js";

function runInner(inner: readonly Arg[], name: string, ctx: ArgvContext, run: RunArgv): void {
  if (inner.length === 0) return;
  run(inner, { ...ctx, wrappers: [...ctx.wrappers, name] });
}

function checkXargs(args: readonly Arg[], ctx: ArgvContext, run: RunArgv): void {
  const parsed = parseOptions(args.slice(1), {
    shortValue: "aEdILnPs",
    longValue: [
      "arg-file",
      "delimiter",
      "max-lines",
      "max-args",
      "max-procs",
      "max-chars",
      "process-slot-var",
      "replace",
      "eof",
    ],
    stopAtOperand: true,
  });
  for (const file of optionValues(parsed, "-a", "--arg-file"))
    requestPath(ctx, file, "read", "xargs -a");
  const command = parsed.operands.length > 0 ? parsed.operands : [literalArg("echo")];
  const replace = optionValues(parsed, "-I", "--replace")[0]?.value;
  const text = ctx.stdin.text ?? "";
  // -0 and -d take whole items, -I whole lines; otherwise xargs splits on blanks.
  const whole = parsed.options.some((option) =>
    ["-0", "--null", "-d", "--delimiter"].includes(option.name),
  );
  const items = whole ? [text] : replace !== undefined ? text.split("\n") : text.split(/\s+/);
  const input = items.filter((word) => word !== "").slice(0, 64);
  // Input the check cannot see (a file, a program): what it adds is unknown text, so
  // `xargs sh -c` or `bash -c '{}'` runs text no check sees.
  const unseen = ctx.stdin.text === null;
  const unknown = { value: "", exact: false, plain: false, glob: false, substituted: false };
  const inner =
    replace !== undefined
      ? command.map((arg) =>
          unseen && arg.value.includes(replace)
            ? { ...arg, ...unknown, unknown: true, opaque: arg.value === replace }
            : { ...arg, value: arg.value.split(replace).join(input[0] ?? "") },
        )
      : [
          ...command,
          ...(unseen
            ? [{ ...unknown, raw: "(input)", unknown: true, opaque: true }]
            : input.map((word) => ({ ...literalArg(word), exact: false }))),
        ];
  ctx.findings.confirm(
    `\`xargs\` runs \`${command[0]?.raw ?? "echo"}\` with arguments read from its input; it needs confirmation.`,
  );
  runInner(inner, "xargs", ctx, run);
}

/** Values of options spelled `--name=value`, `--name value` or exactly `flag value`. */
function valuesOf(args: readonly Arg[], names: readonly string[]): string[] {
  const values: string[] = [];
  args.forEach((arg, index) => {
    for (const name of names) {
      if (arg.value === name) values.push(args[index + 1]?.value ?? "");
      else if (/^-[A-Z]$/.test(name) && arg.value.startsWith(name) && arg.value.length > 2)
        values.push(arg.value.slice(2));
      else if (name.startsWith("--") && arg.value.startsWith(`${name}=`))
        values.push(arg.value.slice(name.length + 1));
    }
  });
  return values;
}

function checkTar(args: readonly Arg[], ctx: ArgvContext): void {
  const scripts = valuesOf(args, [
    "--to-command",
    "--use-compress-program",
    "-I",
    "--info-script",
    "-F",
    "--new-volume-script",
    "--rsh-command",
  ]);
  for (const action of valuesOf(args, ["--checkpoint-action"])) {
    const exec = /^exec=(.*)$/s.exec(action);
    if (exec !== null) scripts.push(exec[1] ?? "");
  }
  if (scripts.length > 0)
    ctx.findings.confirm("`tar` is told to run a command; it needs confirmation.");
  for (const script of scripts) analyzeNestedScript(script, ctx);
  for (const dir of valuesOf(args, ["-C", "--directory"]))
    requestPath(ctx, literalArg(dir), "write", "tar -C");
}

function checkWatch(args: readonly Arg[], ctx: ArgvContext, run: RunArgv): void {
  const parsed = parseOptions(args.slice(1), {
    shortValue: "nq",
    longValue: ["interval", "equexit"],
    stopAtOperand: true,
  });
  if (parsed.options.some((option) => option.name === "-x" || option.name === "--exec"))
    runInner(parsed.operands, "watch", ctx, run);
  else analyzeNestedScript(parsed.operands.map((arg) => arg.value).join(" "), ctx);
}

/** `-c CMD` / `--command CMD` style options of launchers (`flock`, `script`, `su`, `runuser`). */
function checkDashC(name: string, args: readonly Arg[], ctx: ArgvContext, run: RunArgv): void {
  const clusters = args.flatMap((arg, index) =>
    /^-[A-Za-z]+c$/.test(arg.value) ? [args[index + 1]?.value ?? ""] : [],
  );
  const scripts = [...valuesOf(args, ["-c", "--command"]), ...clusters];
  for (const script of scripts) analyzeNestedScript(script, ctx);
  if (name === "flock" && scripts.length === 0) {
    const parsed = parseOptions(args.slice(1), {
      shortValue: "wEc",
      longValue: ["timeout", "conflict-exit-code"],
      stopAtOperand: true,
    });
    runInner(parsed.operands.slice(1), name, ctx, run);
  }
}

const SCRIPT_ARGUMENT: ReadonlyMap<string, (args: readonly Arg[]) => string[]> = new Map([
  [
    "alias",
    (args: readonly Arg[]) =>
      args
        .slice(1)
        .flatMap((arg) =>
          arg.value.includes("=") ? [arg.value.slice(arg.value.indexOf("=") + 1)] : [],
        ),
  ],
  ["zip", (args: readonly Arg[]) => valuesOf(args, ["-TT", "--unzip-command"])],
  ["sort", (args: readonly Arg[]) => valuesOf(args, ["--compress-program"])],
  ["rg", (args: readonly Arg[]) => valuesOf(args, ["--pre"])],
  ["parallel", parallelCommands],
  ["man", (args: readonly Arg[]) => valuesOf(args, ["-P", "--pager"])],
  ["less", (args: readonly Arg[]) => shellEscapes(args.filter((arg) => arg.value.startsWith("+")))],
  ...["vi", "vim", "nvim", "view", "ex", "rvim"].map(
    (name) =>
      [
        name,
        (args: readonly Arg[]) =>
          shellEscapes([
            ...valuesOf(args, ["-c", "--cmd"]).map((value) => literalArg(value)),
            ...args.slice(1).filter((arg) => arg.value.startsWith("+")),
          ]),
      ] as const,
  ),
  ["sed", sedCommands],
]);

/** The commands of `less +!cmd` and `vim -c '!cmd'` / `+':silent !cmd'`: text after a leading `!`. */
function shellEscapes(args: readonly Arg[]): string[] {
  return args.flatMap((arg) => {
    const escape = /^\+?\s*:?\s*(?:silent!?\s*)?!(.*)$/s.exec(arg.value);
    return escape === null ? [] : [escape[1] ?? ""];
  });
}

/**
 * What GNU parallel runs: the command before `:::` with each argument after it (in place of
 * `{}`, else appended), the first 32 of them; `parallel rm -rf ::: /` runs `rm -rf /`.
 */
function parallelCommands(args: readonly Arg[]): string[] {
  const words = args.slice(1).map((arg) => arg.value);
  const separator = words.findIndex((word) => /^:::+\+?$/.test(word));
  const command = (separator === -1 ? words : words.slice(0, separator)).join(" ");
  if (separator === -1) return [command];
  const inputs = words.slice(separator + 1).filter((word) => !/^:::+\+?$/.test(word));
  return [
    command,
    ...inputs
      .slice(0, 32)
      .map((input) =>
        command.includes("{}") ? command.split("{}").join(input) : `${command} ${input}`,
      ),
  ];
}

/**
 * The commands a sed script runs: the `e COMMAND` command (with any address) and the
 * replacement of an `s` command with the `e` flag, which sed runs as a command. The script
 * is every `-e`/`--expression` value, or else the first operand.
 */
function sedCommands(args: readonly Arg[]): string[] {
  const parsed = parseOptions(args.slice(1), {
    shortValue: "eflS",
    longValue: ["expression", "file", "line-length"],
  });
  const expressions = optionValues(parsed, "-e", "--expression").map((arg) => arg.value);
  const scripts =
    expressions.length > 0 ? expressions : parsed.operands.slice(0, 1).map((arg) => arg.value);
  const commands: string[] = [];
  for (const script of scripts) {
    // `e COMMAND` runs to the end of its line (`;` and `}` are part of the command), after
    // any address: `1e`, `$!e`, `/x/I e`.
    for (const match of script.matchAll(/(?:^|[;\n{}]|[\d$/!IM])\s*e[ \t]+([^\n]*)/g))
      commands.push(match[1] ?? "");
    for (const match of script.matchAll(
      /s(.)(?:\\.|(?!\1).)*\1((?:\\.|(?!\1).)*)\1([a-zA-Z0-9]*)/gs,
    ))
      if ((match[3] ?? "").includes("e")) commands.push(match[2] ?? "");
  }
  return commands;
}

/**
 * Rules for programs that run a command given in their arguments: `xargs`, `tar
 * --to-command`, `zip -TT`, `watch`, `alias`, `flock`, `script -c`. The inner
 * command or script is checked recursively. Returns whether `name` is such a program.
 */
export function checkEmbedded(
  name: string,
  args: readonly Arg[],
  ctx: ArgvContext,
  run: RunArgv,
): boolean {
  if (name === "xargs") checkXargs(args, ctx, run);
  else if (name === "tar") checkTar(args, ctx);
  else if (name === "watch") checkWatch(args, ctx, run);
  else if (["flock", "script", "su", "runuser"].includes(name)) checkDashC(name, args, ctx, run);
  else {
    const extract = SCRIPT_ARGUMENT.get(name);
    if (extract === undefined) return false;
    const scripts = extract(args).filter((script) => script.trim() !== "");
    if (scripts.length > 0)
      ctx.findings.confirm(`\`${name}\` is given a command to run; it needs confirmation.`);
    for (const script of scripts) analyzeNestedScript(script, ctx);
  }
  return true;
}
