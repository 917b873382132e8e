import type { Arg, ArgvContext, RunArgv } from "./context.js";
import { literalArg } from "./context.js";
import { refused } from "./denylist.js";
import { requestPath } from "./path-arguments.js";
import { checkGitConfig, checkGitTemplate } from "./config-writes.js";
import { analyzeNestedScript } from "./shells.js";

/** Configuration keys whose value git runs as a command, or that redirect where git runs code from. */
const EXEC_KEYS = [
  /^core\.(?:pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy)$/,
  /^(?:sequence\.editor|diff\.external|credential\.helper|gpg\.program|gpg\.\w+\.program|web\.browser)$/,
  /^(?:pager|alias)\./,
  /^include\.path$|^includeif\..*\.path$/,
  /^remote\..*\.(?:uploadpack|receivepack|vcs)$/,
  /^url\..*\.(?:insteadof|pushinsteadof)$/,
  /\.(?:command|cmd|helper|program|textconv|clean|smudge|process|driver|tool|packobjectshook)$/,
];

function isExecKey(key: string): boolean {
  const lower = key.toLowerCase();
  return EXEC_KEYS.some((pattern) => pattern.test(lower));
}

const GLOBAL_VALUE_OPTIONS = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--config-env",
  "--super-prefix",
]);

function checkConfigOverride(setting: string, ctx: ArgvContext): void {
  const equals = setting.indexOf("=");
  const key = equals === -1 ? setting : setting.slice(0, equals);
  const value = equals === -1 ? "" : setting.slice(equals + 1);
  ctx.findings.confirm(
    `\`git -c ${key}\` overrides git configuration, and keys such as core.pager or core.sshCommand run commands; it needs confirmation.`,
  );
  if (isExecKey(key) && value.trim() !== "") analyzeNestedScript(value.replace(/^!/, ""), ctx);
}

/** `git clone -c core.fsmonitor=…`: settings written into the new repository's config. */
function checkPersistedOverrides(rest: readonly Arg[], ctx: ArgvContext): void {
  rest.forEach((arg, index) => {
    const inline = /^(?:-c|--config=?)(.+)$/.exec(arg.value);
    const setting =
      inline?.[1] ?? (["-c", "--config"].includes(arg.value) ? rest[index + 1]?.value : undefined);
    const key = setting?.split("=")[0] ?? "";
    if (setting !== undefined && isExecKey(key))
      ctx.findings.block(
        refused(
          `git clone -c ${key}`,
          "writes a command-running key into the new repository's config",
        ),
      );
  });
}

function checkSubcommand(
  subcommand: string,
  rest: readonly Arg[],
  ctx: ArgvContext,
  run: RunArgv,
): void {
  const values = rest.map((arg) => arg.value);
  if (subcommand === "config") checkGitConfig(rest, ctx);
  checkGitTemplate(subcommand, rest, ctx);
  if (subcommand === "clone" || subcommand === "submodule") checkPersistedOverrides(rest, ctx);
  rest.forEach((arg, index) => {
    const value = arg.value;
    const next = values[index + 1] ?? "";
    if (subcommand === "rebase" && (value === "-x" || value === "--exec"))
      analyzeNestedScript(next, ctx);
    if (subcommand === "rebase" && value.startsWith("--exec="))
      analyzeNestedScript(value.slice(7), ctx);
    if (subcommand === "filter-branch" && /^--\w+-filter$/.test(value))
      analyzeNestedScript(next, ctx);
    if (["difftool", "mergetool"].includes(subcommand) && (value === "-x" || value === "--extcmd"))
      analyzeNestedScript(next, ctx);
  });
  if (subcommand === "bisect" && values[0] === "run")
    run(rest.slice(1), { ...ctx, wrappers: [...ctx.wrappers, "git bisect run"] });
  if (subcommand === "submodule" && values.includes("foreach")) {
    analyzeNestedScript(
      values
        .slice(values.indexOf("foreach") + 1)
        .filter((value) => !value.startsWith("--"))
        .join(" "),
      ctx,
    );
  }
}

/**
 * Rules for git: `-c` overrides need confirmation (and command-valued keys are checked as
 * scripts), `git config` changes, hook templates and command-running keys written by
 * `clone -c` block, `-C` and `--git-dir` must stay inside the workspace. Returns whether
 * `name` is git.
 */
export function checkGit(
  name: string,
  args: readonly Arg[],
  ctx: ArgvContext,
  run: RunArgv,
): boolean {
  if (name !== "git") return false;
  let i = 1;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (arg === undefined || !arg.value.startsWith("-")) break;
    const [flag = "", inline] = arg.value.startsWith("--")
      ? arg.value.split(/=(.*)/s)
      : [arg.value.slice(0, 2), arg.value.slice(2) || undefined];
    if (!GLOBAL_VALUE_OPTIONS.has(flag)) continue;
    const value = inline ?? args[++i]?.value ?? "";
    if (flag === "-c") checkConfigOverride(value, ctx);
    else if (flag === "-C" || flag === "--git-dir" || flag === "--work-tree")
      requestPath(ctx, { ...(args[i] ?? literalArg(value)), value }, "write", `git ${flag}`);
    else
      ctx.findings.confirm(
        `\`git ${flag}\` changes where git finds its programs or configuration; it needs confirmation.`,
      );
  }
  const subcommand = args[i]?.value;
  if (subcommand !== undefined) checkSubcommand(subcommand, args.slice(i + 1), ctx, run);
  // The ext:: remote helper runs its argument as a command (`git clone 'ext::sh -c id'`).
  const external = args.find((arg) => /^ext::/i.test(arg.value) || /=ext::/i.test(arg.value));
  if (external !== undefined)
    ctx.findings.block(
      refused(`git ${external.raw}`, "uses the ext:: transport, which runs a command"),
    );
  return true;
}
