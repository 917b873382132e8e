import { checkSubscriptCode } from "./arithmetic-injection.js";
import type { ArgvContext } from "./context.js";
import { refused } from "./denylist.js";
import { metadataInCode } from "./metadata-hosts.js";
import { analyzeNestedScript } from "./shells.js";

/** Variables that make the loader, a shell or an interpreter run code the command chooses. */
const HIJACKING = new Set([
  "BASH_ENV",
  "ENV",
  "PATH",
  "IFS",
  "PROMPT_COMMAND",
  "NODE_OPTIONS",
  "NODE_PATH",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "PYTHONHOME",
  "PYTHONINSPECT",
  "PERL5LIB",
  "PERL5OPT",
  "PERLLIB",
  "PERL5DB",
  "RUBYOPT",
  "RUBYLIB",
  "SHELLOPTS",
  "BASHOPTS",
  "PS0",
  "PS1",
  "PS2",
  "PS3",
  "PS4",
  "BASH_LOADABLES_PATH",
  "EXECIGNORE",
  "INPUTRC",
  "GLOBIGNORE",
  "CDPATH",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "GIT_EXEC_PATH",
  "GIT_CONFIG",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_TEMPLATE_DIR",
  "GCONV_PATH",
  "HOSTALIASES",
  "LOCPATH",
  "NLSPATH",
  "ZDOTDIR",
]);
const HIJACKING_PREFIXES = ["LD_", "DYLD_", "BASH_FUNC_", "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"];

/** Variables whose value some program runs as a command later. */
const COMMAND_VALUED = new Set([
  "EDITOR",
  "VISUAL",
  "PAGER",
  "MANPAGER",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_SSH_COMMAND",
  "GIT_SSH",
  "GIT_ASKPASS",
  "GIT_PROXY_COMMAND",
  "GIT_EXTERNAL_DIFF",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "LESSOPEN",
  "LESSCLOSE",
  "BROWSER",
  "SYSTEMD_PAGER",
  "TERMINAL",
]);

/** Whether setting `name` hijacks how programs load or run. */
export function isHijackingVariable(name: string): boolean {
  return HIJACKING.has(name) || HIJACKING_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * Checks one `NAME=VALUE` setting (a prefix, a standalone assignment, `export`, `env` or
 * `sudo` settings): loader and shell variables block, a value shaped like an array
 * subscript running a command (`'a[$(id)]'`, evaluated later by arithmetic) blocks,
 * command-valued ones are checked as scripts, and any setting needs confirmation. `raw`
 * is the value's source text when there is one.
 */
export function checkAssignment(
  name: string,
  value: string,
  ctx: ArgvContext,
  raw: string = value,
): void {
  checkSubscriptCode(`${name}=${raw}`, raw, value, ctx.findings);
  // `http_proxy=http://169.254.169.254`, `AWS_EC2_METADATA_SERVICE_ENDPOINT=…`.
  const metadata = value.includes("://") ? metadataInCode(value) : null;
  if (metadata !== null)
    ctx.findings.block(
      refused(
        `${name}=${value}`,
        `points a program at ${metadata}, where a cloud host hands out its credentials`,
      ),
    );
  if (isHijackingVariable(name)) {
    ctx.findings.block(
      refused(
        `${name}=`,
        "makes programs load or run code chosen by the command (loader or shell hijack)",
      ),
    );
    return;
  }
  if (COMMAND_VALUED.has(name) && value.trim() !== "")
    analyzeNestedScript(value, { ...ctx, embedded: true });
  ctx.findings.confirm(`The command sets the variable \`${name}\`; it needs confirmation.`);
}
