import type { Arg, ArgvContext } from "./context.js";
import { literalArg } from "./context.js";
import { NETWORK_SUBCOMMANDS } from "./network-needs.data.js";
import { requestPath } from "./path-arguments.js";

/** Subcommands that only read the repository, whatever their arguments (options aside). */
const READ_ONLY = new Set(
  (
    "status log diff show blame annotate shortlog describe rev-parse rev-list ls-files ls-tree " +
    "cat-file diff-tree diff-index diff-files merge-base name-rev grep reflog whatchanged " +
    "count-objects check-ignore check-attr show-ref for-each-ref range-diff version help"
  ).split(" "),
);

/** Subcommands that only read when given one of these first arguments (or none, `""`). */
const READ_ONLY_FORMS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    branch:
      " -a -r -v -vv --all --remotes --list -l --show-current --contains --merged --no-merged",
    tag: " -l --list -n --contains --points-at",
    stash: "list show",
    remote: " -v --verbose get-url",
    submodule: " status summary",
    worktree: "list",
    notes: " list show",
  }).map(([name, forms]) => [name, new Set(forms.split(" "))]),
);

/** Options of `branch`, `tag` and the like that create, delete, move or copy. */
const CHANGES_REFS = /^-[dDmMcC]$/;
/** Options with which a reading subcommand writes a file or runs a program. */
const NOT_READ_ONLY_OPTIONS =
  /^(?:--output(?:=|$)|--output-directory|-O|--open-files-in-pager|--ext-diff|--textconv|--paginate|--exec|--upload-pack|--receive-pack|--run|--edit-description|--delete|--move|--copy|--set-upstream)/;

const GLOBAL_VALUE_OPTIONS = new Set(
  "-C -c --git-dir --work-tree --namespace --exec-path --config-env --super-prefix".split(" "),
);

/** Whether `subcommand` with `rest` only reads the repository. */
function readsOnly(subcommand: string, rest: readonly Arg[]): boolean {
  if (rest.some((arg) => NOT_READ_ONLY_OPTIONS.test(arg.value))) return false;
  if (READ_ONLY.has(subcommand)) return true;
  // `git apply --check` (or `--stat`) only reads the patch and the tree.
  if (subcommand === "apply")
    return (
      rest.some((arg) => /^--(?:check|stat|numstat|summary)$/.test(arg.value)) &&
      !rest.some((arg) => /^--(?:apply|index|cached|3way)$/.test(arg.value))
    );
  const forms = READ_ONLY_FORMS.get(subcommand);
  if (forms === undefined || rest.some((arg) => CHANGES_REFS.test(arg.value))) return false;
  const first = rest[0]?.value ?? "";
  if (!forms.has(first)) return false;
  // `git branch --list pattern` reads; `git branch name` (no option first) creates.
  return first !== "" || rest.length === 0;
}

/**
 * Rules for git. Global options: `-C`, `--git-dir` and `--work-tree` are paths (outside the
 * workspace escalates), `-c` and the others change how git runs (never direct). A reading
 * subcommand runs directly when nothing else is wrong, and each of its operands is checked as
 * a path (`HEAD:.env` reads `.env` from history: a secret). A fetching subcommand is left to
 * the network rule; any other subcommand writes `.git` and escalates. Returns whether `name`
 * is git.
 */
export function checkGit(name: string, args: readonly Arg[], ctx: ArgvContext): boolean {
  if (name !== "git") return false;
  let i = 1;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (arg === undefined || !arg.value.startsWith("-")) break;
    if (arg.value === "--no-pager" || arg.value === "-P" || arg.value === "--no-optional-locks")
      continue;
    const [flag = "", inline] = arg.value.startsWith("--")
      ? arg.value.split(/=(.*)/s)
      : [arg.value.slice(0, 2), arg.value.slice(2) || undefined];
    if (!GLOBAL_VALUE_OPTIONS.has(flag)) {
      ctx.findings.confirm(`\`git ${arg.raw}\` is an option this check does not know`);
      continue;
    }
    const valueArg = inline === undefined ? args[++i] : { ...arg, value: inline };
    const value = valueArg ?? literalArg("");
    if (flag === "-C" || flag === "--git-dir" || flag === "--work-tree")
      requestPath(ctx, value, "read", `git ${flag}`);
    else ctx.findings.confirm(`\`git ${flag}\` changes how git runs or what it reads`);
  }
  const subcommand = args[i]?.value ?? "";
  const rest = args.slice(i + 1);
  if (!(args[i]?.known ?? true)) {
    ctx.findings.confirm("The git subcommand is computed");
    return true;
  }
  // Escalated here, not only by the network rule: that rule takes the first word that is not
  // an option for the subcommand, which after `-C DIR` is DIR (`git -C . push`).
  if (NETWORK_SUBCOMMANDS.get("git")?.has(subcommand) === true && !readsOnly(subcommand, rest)) {
    ctx.findings.escalate(
      "network",
      `\`git ${subcommand}\` needs the network, which the sandbox gives only to hosts a person allows.`,
    );
    return true;
  }
  const form = `${subcommand} ${rest[0]?.value ?? ""}`;
  if (/^(?:remote|submodule|archive) (?:update|show|prune|sync|add)$/.test(form)) {
    ctx.findings.escalate("network", `\`git ${form}\` may reach a remote, which needs the network`);
  }
  if (!readsOnly(subcommand, rest)) {
    ctx.findings.escalate(
      "git-write",
      `\`git ${subcommand}\` may write .git (refs, index, config), which the sandbox keeps read-only`,
    );
    return true;
  }
  for (const arg of rest) {
    if (arg.value.startsWith("-")) continue;
    const colon = arg.value.indexOf(":");
    const target = colon === -1 ? arg : { ...arg, value: arg.value.slice(colon + 1) };
    if (target.value !== "") requestPath(ctx, target, "read", "git");
  }
  return true;
}
