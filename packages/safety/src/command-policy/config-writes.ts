import type { Arg, ArgvContext } from "./context.js";
import { refused } from "./denylist.js";
import { optionValues, parseOptions } from "./option-scan.js";
import { requestPath } from "./path-arguments.js";

/**
 * Commands that change another tool's configuration in a way that makes it run code
 * later, outside any check: `git config` (core.fsmonitor, core.pager, core.sshCommand,
 * core.hooksPath, alias.x=!cmd, filter drivers, include.path, url rewrites, … — any key,
 * since the list of command-running keys keeps growing), package-manager configuration
 * (npm script-shell and node-options, pip index URLs, conda channels, bundler settings),
 * `npm pkg set scripts.*`, `gh config`/`gh alias`, `direnv allow`, `mise trust`, and the
 * git hook installers. Writing their files directly (`.git/config`, `.npmrc`, `.envrc`,
 * …) is refused by the path rules; this file covers the commands that write them.
 */

const GIT_CONFIG_WRITES =
  /^--(?:add|unset|unset-all|replace-all|rename-section|remove-section|edit)$|^-e$/;
const GIT_CONFIG_VERBS = new Set(["set", "unset", "rename-section", "remove-section", "edit"]);
const GIT_CONFIG_READS =
  /^--(?:get|get-all|get-regexp|get-urlmatch|get-color|get-colorbool|list|show-origin|show-scope|name-only)$|^-l$/;

/**
 * `git config` with a change (`key value`, `set`, `--add`, `--unset`, `--edit`, …) blocks:
 * the repository's config is where git takes commands from. Reading needs confirmation.
 */
export function checkGitConfig(args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args, {
    shortValue: "f",
    longValue: ["file", "blob", "type", "default", "comment", "value", "url"],
  });
  const operands = parsed.operands.map((arg) => arg.value);
  const verb = GIT_CONFIG_VERBS.has(operands[0] ?? "") ? operands.shift() : undefined;
  const reads = parsed.options.some((option) => GIT_CONFIG_READS.test(option.name));
  const changes =
    verb !== undefined ||
    parsed.options.some((option) => GIT_CONFIG_WRITES.test(option.name)) ||
    (!reads && operands.length >= 2 && operands[0] !== "get" && operands[0] !== "list");
  if (changes) {
    const scope = parsed.options.find((option) =>
      ["--global", "--system", "--file", "-f", "--worktree", "--local"].includes(option.name),
    );
    ctx.findings.block(
      refused(
        `git config ${scope?.name ?? ""} ${verb ?? ""} ${operands[0] ?? ""}`
          .replace(/\s+/g, " ")
          .trim(),
        "changes git configuration, where git takes commands to run later (pagers, hooks, fsmonitor, aliases, filters, URL rewrites)",
      ),
    );
  }
  ctx.findings.confirm("`git config` reads or changes git configuration; it needs confirmation.");
}

/** `git clone/init --template=DIR` copies DIR's hooks into the new repository. */
export function checkGitTemplate(subcommand: string, args: readonly Arg[], ctx: ArgvContext): void {
  if (subcommand !== "clone" && subcommand !== "init") return;
  const template = args.find(
    (arg) => arg.value === "--template" || arg.value.startsWith("--template="),
  );
  if (template !== undefined)
    ctx.findings.block(
      refused(
        `git ${subcommand} ${template.raw}`,
        "installs git hooks from a template directory, which run on the next commit",
      ),
    );
}

/** `tool … config VERB` where VERB writes (`npm config set`, `yarn config set`, `pip config set`). */
const CONFIG_WRITE_VERBS = new Set([
  "set",
  "delete",
  "rm",
  "unset",
  "edit",
  "fix",
  "add",
  "append",
  "prepend",
  "remove",
]);

const PACKAGE_TOOLS = new Set([
  "npm",
  "npx",
  "pnpm",
  "pnpx",
  "yarn",
  "bun",
  "bunx",
  "corepack",
  "pip",
  "pip3",
  "pipx",
  "uv",
  "poetry",
  "pdm",
  "bundle",
  "bundler",
  "gem",
  "composer",
  "cargo",
  "conda",
  "mamba",
  "micromamba",
  "deno",
]);

function sequence(
  values: readonly string[],
  ...words: readonly (string | ((word: string) => boolean))[]
): boolean {
  for (let start = 0; start + words.length <= values.length; start++) {
    if (
      words.every((word, offset) => {
        const value = values[start + offset] ?? "";
        return typeof word === "string" ? value === word : word(value);
      })
    )
      return true;
  }
  return false;
}

function packageConfigWrite(name: string, values: readonly string[]): string | null {
  const words = values.filter((value) => !value.startsWith("-"));
  const verb = (word: string) => CONFIG_WRITE_VERBS.has(word);
  if (
    sequence(words, "config", verb) ||
    sequence(words, "c", verb) ||
    ((name.startsWith("npm") || name.startsWith("pnpm")) && words[0] === "set")
  )
    return "changes the package manager's configuration (script shells, node options, registries and hooks run code or fetch it)";
  if (name === "conda" || name === "mamba" || name === "micromamba")
    if (
      values.includes("config") &&
      values.some((value) => /^--(?:set|add|append|prepend|remove|remove-key)$/.test(value))
    )
      return "changes conda's configuration (channels decide what code is installed)";
  if (
    sequence(values, "pkg", "set") &&
    values.some((value) => /^(?:scripts|bin|config)[.[]/.test(value))
  )
    return "adds a package script, which runs on the next install or run";
  if (values.includes("set-script"))
    return "adds a package script, which runs on the next install or run";
  if (
    (name === "poetry" || name === "pdm") &&
    values[0] === "config" &&
    values.filter((value) => !value.startsWith("-")).length >= 3
  )
    return "changes the package manager's configuration";
  return null;
}

/** Other tools whose configuration or trust commands make them run code later. */
function toolConfigWrite(name: string, values: readonly string[]): string | null {
  const [first = "", second = ""] = values.filter((value) => !value.startsWith("-"));
  if (name === "gh" && first === "config" && (second === "set" || second === "clear-cache"))
    return "changes gh's configuration (editor, pager and browser run commands)";
  if (name === "gh" && first === "alias" && (second === "set" || second === "import"))
    return "adds a gh alias, which can run shell commands";
  if (name === "direnv" && ["allow", "permit", "grant", "edit"].includes(first))
    return "authorises an .envrc, which then runs on every cd into the directory";
  if (
    (name === "mise" || name === "rtx") &&
    (first === "trust" || (first === "settings" && second === "set"))
  )
    return "trusts a tool configuration, which then runs its hooks and tasks";
  if (name === "asdf" && first === "plugin" && second === "add")
    return "adds an asdf plugin, code that runs on every version switch";
  if (
    name === "pre-commit" &&
    (first === "install" || first === "install-hooks" || first === "init-templatedir")
  )
    return "installs git hooks, which run on every commit";
  if (
    (name === "husky" ||
      name === "lefthook" ||
      name === "simple-git-hooks" ||
      name === "overcommit") &&
    first !== "" &&
    first !== "--version"
  )
    return "installs git hooks, which run on every commit";
  if (name === "yarn" && first === "set" && second === "version")
    return "installs a yarn release into the project, code every yarn command runs";
  if (name === "loginctl" && first === "enable-linger")
    return "keeps user services running after logout (persistence)";
  if (name === "defaults" && first === "write") return "changes macOS application settings";
  return null;
}

/** `ssh-keygen -f FILE` writes the key (`~/.ssh/…`, `authorized_keys`), unless it only reads one. */
function checkKeygen(args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), {
    shortValue: "abCDEefFgIJjKmMNnOPrSstUwYzZ",
  });
  const reads = parsed.options.some((option) => /^-[yleiFBD]$/.test(option.name));
  for (const file of optionValues(parsed, "-f"))
    requestPath(ctx, file, reads ? "read" : "write", "ssh-keygen -f");
}

/**
 * Rules for commands that change another tool's configuration so that it runs code
 * later: they block. Applies to every program (`npx husky install`, `python -m pip config set`).
 */
export function checkConfigWrites(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  if (name === "ssh-keygen") checkKeygen(args, ctx);
  const values = args.slice(1).map((arg) => arg.value);
  let why: string | null = null;
  if (PACKAGE_TOOLS.has(name)) why = packageConfigWrite(name, values);
  if (why === null && /^python[0-9.]*$/.test(name) && sequence(values, "-m", "pip", "config"))
    why = packageConfigWrite("pip", values.slice(values.indexOf("pip") + 1));
  if (why === null) why = toolConfigWrite(name, values);
  if (why === null && ["npx", "pnpx", "bunx"].includes(name)) {
    const inner = values.filter((value) => !value.startsWith("-"));
    why = toolConfigWrite(inner[0] ?? "", inner.slice(1));
  }
  if (why !== null)
    ctx.findings.block(refused(`${name} ${values.slice(0, 3).join(" ")}`.trim(), why));
}
