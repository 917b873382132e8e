/**
 * The one list of workspace paths that XZatoma treats specially, used by the path guard,
 * the file tools, the command policy and the sandbox alike. Names are compared
 * case-insensitively: `.Git/hooks` and `.ENVRC` are the real files on a case-insensitive
 * file system (macOS, Windows), and a rule that a capital letter defeats is no rule.
 *
 * Two levels:
 * - `never`: version-control internals (`.git` at any depth, a gitfile, `.hg`, `.jj`,
 *   `.svn`). A write there runs code later on the host (`core.fsmonitor`, hooks,
 *   `commondir` pointing at a planted config). File tools never write them; the sandbox
 *   keeps them read-only; a git command that must write them runs only after a person's
 *   yes.
 * - `person`: files that make another program run code, or change what an agent does,
 *   when someone merely opens, enters, builds or commits the project: editor and agent
 *   settings, direnv, package-manager and git attribute files, hook managers, CI
 *   definitions, shell startup files, credential-helper configs, agent instruction files
 *   (`AGENTS.md` goes into the next session's system prompt). A person's explicit yes is
 *   needed in every mode; full autonomous mode never writes them on its own.
 *
 * See docs/explanation/threat-model.md for why each entry is here.
 */

/** How strongly a path is protected against writes. */
export type PathProtection = "never" | "person";

/** Why a path is protected, for the person or model reading the refusal. */
export interface PathConcern {
  readonly protection: PathProtection;
  /** A sentence naming what the path does. */
  readonly reason: string;
}

/** Version-control directories (and gitfiles): never written by a tool. */
export const VERSION_CONTROL_NAMES: readonly string[] = [".git", ".hg", ".jj", ".svn"];

/**
 * Shell startup files: whoever writes one runs code in the user's next shell. Protected
 * wherever they appear, so a workspace that is a home directory is safe too.
 */
export const SHELL_STARTUP_FILES: readonly string[] = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".bash_aliases",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".kshrc",
  ".mkshrc",
  ".cshrc",
  ".tcshrc",
  ".login",
  ".logout",
  ".inputrc",
  ".xprofile",
  ".xinitrc",
  ".xsession",
  "config.fish",
];

/**
 * Files that run code or steer a program when the project is opened, entered, installed,
 * committed or handed to an agent. Matched by name at any depth.
 */
export const CODE_RUNNING_FILES: readonly string[] = [
  // direnv runs .envrc on `cd`.
  ".envrc",
  // Package managers: scripts, `yarnPath`, `.pnpmfile.cjs` hooks, registry and token settings.
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmfile.cjs",
  ".pnpmfile.mjs",
  "pip.conf",
  // git reads these from the work tree: submodule URLs and filter or diff drivers.
  ".gitmodules",
  ".gitattributes",
  ".gitconfig",
  // Hook managers run them on commit.
  ".pre-commit-config.yaml",
  "lefthook.yml",
  ".lefthook.yml",
  "lefthook-local.yml",
  // Editors that run code from the project: vim/neovim exrc, Emacs dir-locals `eval:`.
  ".exrc",
  ".nvimrc",
  ".nvim.lua",
  ".dir-locals.el",
  ".dir-locals-2.el",
  // Agent and MCP configuration and agent instructions.
  ".mcp.json",
  "agents.md",
  "agent.md",
  "claude.md",
  "gemini.md",
  ".cursorrules",
  ".windsurfrules",
  ".clinerules",
  ".aider.conf.yml",
  // CI definitions run with the repository's secrets on the next push.
  ".gitlab-ci.yml",
  ".travis.yml",
  "azure-pipelines.yml",
  "bitbucket-pipelines.yml",
  // Network credentials files that also carry commands (`macdef`).
  ".netrc",
  ...SHELL_STARTUP_FILES,
];

/**
 * Directories whose contents run code or configure agents, tools and credentials. A path
 * is protected when these names appear as consecutive components anywhere in it.
 */
export const CODE_RUNNING_DIRECTORIES: readonly (readonly string[])[] = [
  [".vscode"],
  [".idea"],
  [".fleet"],
  [".zed"],
  [".devcontainer"],
  [".husky"],
  [".claude"],
  [".cursor"],
  [".gemini"],
  [".codex"],
  [".continue"],
  [".windsurf"],
  [".amazonq"],
  [".roo"],
  [".kiro"],
  [".xzatoma"],
  [".github", "workflows"],
  [".circleci"],
  [".cargo"],
  [".mvn"],
  [".ssh"],
  [".gnupg"],
  [".aws"],
  [".azure"],
  [".kube"],
  [".docker"],
  [".config", "git"],
  [".config", "fish"],
  [".config", "direnv"],
  [".config", "autostart"],
  [".config", "systemd"],
  [".config", "xzatoma"],
  [".config", "gcloud"],
  [".local", "bin"],
];

const CODE_RUNNING_FILE_SET = new Set(CODE_RUNNING_FILES.map((name) => name.toLowerCase()));
const VERSION_CONTROL_SET = new Set(VERSION_CONTROL_NAMES);

/** `/`- or `\`-separated path → lower-case components without `.` and empty ones. */
export function pathComponents(relativePath: string): string[] {
  return relativePath
    .split(/[\\/]+/)
    .filter((part) => part !== "" && part !== ".")
    .map((part) => part.toLowerCase());
}

function containsSequence(components: readonly string[], sequence: readonly string[]): boolean {
  for (let start = 0; start + sequence.length <= components.length; start++) {
    if (sequence.every((name, offset) => components[start + offset] === name)) return true;
  }
  return false;
}

/**
 * Why writing the workspace-relative path `relativePath` is protected, or undefined when
 * it is an ordinary path. Pure: judges the name only (see the path guard for the checks
 * that look at the file system, such as a directory shaped like a bare repository).
 *
 * @example
 * writeConcern("sub/.GIT/config");   // { protection: "never", … }
 * writeConcern(".vscode/tasks.json"); // { protection: "person", … }
 * writeConcern("src/index.ts");       // undefined
 */
export function writeConcern(relativePath: string): PathConcern | undefined {
  const components = pathComponents(relativePath);
  const versionControl = components.find((name) => VERSION_CONTROL_SET.has(name));
  if (versionControl !== undefined) {
    return {
      protection: "never",
      reason: `it is inside version-control internals (${versionControl}), where a write can make git or another tool run code on the next ordinary command`,
    };
  }
  const name = components.at(-1);
  if (name !== undefined && CODE_RUNNING_FILE_SET.has(name)) {
    return {
      protection: "person",
      reason: `${name} makes another program run code or changes what an agent does when the project is opened, entered, installed or committed`,
    };
  }
  const directory = CODE_RUNNING_DIRECTORIES.find((sequence) =>
    containsSequence(components, sequence),
  );
  if (directory !== undefined) {
    return {
      protection: "person",
      reason: `${directory.join("/")}/ holds settings that run code or configure tools, agents or credentials`,
    };
  }
  return undefined;
}
