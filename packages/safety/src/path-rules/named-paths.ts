/**
 * The one data list of paths that XZatoma protects by name, each with the reason it is
 * here. Everything else is judged by class (see file-change.ts): a hidden path, an
 * executable file, a path git resolves from its configuration. This list holds what the
 * classes do not cover: names that are not hidden (`AGENTS.md`, `Jenkinsfile`), and hidden
 * names that must hold even inside the sandbox, where commands may write hidden paths as
 * builds need (`.venv`, `node_modules/.bin`).
 *
 * A pattern is `/`-separated components compared with {@link foldName}; `*` in a component
 * stands for any text. A pattern ending in `/` is a directory: it matches wherever its
 * components appear in a row, and everything below. Otherwise the pattern matches the last
 * components of a path. `sandbox` says what the sandbox's apply does with a command's change
 * there: `discard` it (only a person writes these), or `report` it (installs write them, so
 * they reach the workspace and the report names them for the person).
 *
 * Decided not to list: `Makefile`, `GNUmakefile`, `package.json`, `conftest.py` and other
 * build files. They run when a person builds or tests, which is what the agent's work is
 * for; the person reviews them as the code they are (docs/explanation/trust-boundaries.md).
 * Formatter and linter configs (`.prettierrc`, `.eslintrc*`) are not inert either: they
 * name plugins and parsers by path, which the formatter loads on save; they are hidden, so
 * the hidden-path rule covers them.
 */

/** One protected name and why. */
export interface NamedPath {
  readonly pattern: string;
  readonly reason: string;
  /** `never`: no tool writes it, whoever asks. Default `person`: only with a person's yes. */
  readonly protection?: "never" | "person";
  /** What the sandbox's apply does with a command's change here. Default `discard`. */
  readonly sandbox?: "discard" | "report";
}

const SHELL = "a shell runs it when it starts or a person logs in";
const AGENT = "an agent reads it as instructions or settings at the start of its next session";
const CI = "CI runs it with the repository's secrets on the next push";
const EDITOR = "an editor runs commands from it when the project is opened";
const PACKAGES =
  "a package manager or toolchain runs code or a program it names on the next install or build";
const HOOKS = "a hook manager runs it on commit";
const DEBUGGER = "a debugger or REPL started in the project runs its commands";
const CREDENTIALS = "programs run commands it names (credential helpers, exec plugins)";
const HOME = "it is a user's startup or tool configuration";

/** The list. Order is irrelevant; a path takes the reason of the first entry it matches. */
export const NAMED_PATHS: readonly NamedPath[] = [
  // Version-control internals, at any depth: a write there makes git (or hg, jj, ...) run
  // code on the next ordinary command (`core.fsmonitor`, hooks, a `commondir` pointing at
  // a planted config). A git command a person approved may write `.git` in the sandbox.
  ...[".git/", ".hg/", ".jj/", ".svn/", ".bzr/", "_darcs/", ".pijul/", ".fslckout", "_fossil_"].map(
    (pattern): NamedPath => ({
      pattern,
      reason:
        "version-control internals make git or another tool run code on the next ordinary command",
      protection: "never",
    }),
  ),
  // Shell startup files: protected wherever they are, so a workspace holding a home is safe.
  ...[
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
    ".xsessionrc",
    ".pam_environment",
    "config.fish",
  ].map((pattern) => ({ pattern, reason: SHELL })),
  { pattern: ".envrc", reason: "direnv runs it when a shell enters the directory" },
  {
    pattern: ".env",
    reason:
      "tools load it into the environment (direnv's dotenv, docker compose, dotenv loaders), where NODE_OPTIONS or PYTHONSTARTUP run code",
  },
  {
    pattern: ".env.*",
    reason: "frameworks (Next.js, Vite) and dotenv loaders load it into the environment",
  },
  // Package managers and toolchains.
  ...[
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".pnpmfile.cjs",
    ".pnpmfile.mjs",
    "pnpm-workspace.yaml",
    "bunfig.toml",
    ".bunfig.toml",
    ".yarn/releases/",
    ".yarn/plugins/",
    ".yarn/sdks/",
    "pip.conf",
    "pip.ini",
    "rust-toolchain",
    "rust-toolchain.toml",
    ".cargo/",
    ".mvn/",
    "gradle.properties",
    "gradle/wrapper/gradle-wrapper.properties",
    ".bazelrc",
    ".bazeliskrc",
    "mise.toml",
    ".mise.toml",
    "mise.local.toml",
    ".mise/",
    ".config/mise/",
  ].map((pattern) => ({ pattern, reason: PACKAGES })),
  {
    pattern: ".pnp.cjs",
    reason: "Yarn Plug'n'Play makes node load it before every script of the project",
    sandbox: "report",
  },
  {
    pattern: ".pnp.loader.mjs",
    reason: "Yarn Plug'n'Play makes node load it before every script of the project",
    sandbox: "report",
  },
  {
    pattern: "site-packages/*.pth",
    reason: "Python runs its import lines whenever that environment's interpreter starts",
    sandbox: "report",
  },
  {
    pattern: "dist-packages/*.pth",
    reason: "Python runs its import lines whenever that environment's interpreter starts",
    sandbox: "report",
  },
  // Files git reads from the work tree.
  {
    pattern: ".gitmodules",
    reason: "git clones and checks out the submodule URLs and paths it names",
  },
  {
    pattern: ".gitattributes",
    reason: "git runs the filter, diff and merge drivers it selects on checkout, diff and merge",
  },
  { pattern: ".gitconfig", reason: "git and tools read it as git configuration" },
  { pattern: ".lfsconfig", reason: "git-lfs reads its settings on checkout and push" },
  // Hook managers.
  ...[
    ".pre-commit-config.yaml",
    ".pre-commit-config.yml",
    "lefthook.yml",
    "lefthook.yaml",
    "lefthook.toml",
    "lefthook.json",
    ".lefthook.yml",
    ".lefthook.yaml",
    ".lefthook.toml",
    ".lefthook.json",
    "lefthook-local.yml",
    "lefthook-local.yaml",
    ".lefthook/",
    ".husky/",
    ".overcommit.yml",
    ".githooks/",
  ].map((pattern) => ({ pattern, reason: HOOKS })),
  // Editors and development environments.
  ...[
    ".vscode/",
    "*.code-workspace",
    ".idea/",
    ".fleet/",
    ".zed/",
    ".theia/",
    ".devcontainer/",
    ".devcontainer.json",
    ".exrc",
    ".nvimrc",
    ".nvim.lua",
    ".lazy.lua",
    ".dir-locals.el",
    ".dir-locals-2.el",
  ].map((pattern) => ({ pattern, reason: EDITOR })),
  // Debuggers and REPLs that read a startup file from the directory they start in.
  ...[".gdbinit", ".lldbinit", ".pdbrc", ".irbrc", ".pryrc", ".rprofile", ".ghci", ".octaverc"].map(
    (pattern) => ({ pattern, reason: DEBUGGER }),
  ),
  // Agent instructions, settings and MCP configuration, for every agent we know of.
  ...[
    "AGENTS.md",
    "AGENT.md",
    "AGENTS.override.md",
    "CLAUDE.md",
    "CLAUDE.local.md",
    "GEMINI.md",
    "QWEN.md",
    "CRUSH.md",
    "OPENCODE.md",
    "CONVENTIONS.md",
    ".cursorrules",
    ".windsurfrules",
    ".clinerules",
    ".roorules",
    ".continuerules",
    ".goosehints",
    ".rules",
    ".augment-guidelines",
    ".openhands_instructions",
    ".mcp.json",
    "opencode.json",
    "opencode.jsonc",
    ".crush.json",
    "crush.json",
    ".aider.conf.yml",
    ".github/copilot-instructions.md",
    ".github/instructions/",
    ".github/prompts/",
    ".github/chatmodes/",
    ".github/agents/",
    ".claude/",
    ".cursor/",
    ".gemini/",
    ".codex/",
    ".continue/",
    ".windsurf/",
    ".amazonq/",
    ".roo/",
    ".kilocode/",
    ".kiro/",
    ".junie/",
    ".augment/",
    ".openhands/",
    ".opencode/",
    ".qwen/",
    ".trae/",
    ".clinerules/",
    ".xzatoma/",
    ".config/xzatoma/",
  ].map((pattern) => ({ pattern, reason: AGENT })),
  // CI and deployment definitions of every forge and service we know of.
  ...[
    ".github/workflows/",
    ".github/actions/",
    ".gitea/workflows/",
    ".forgejo/workflows/",
    ".gitlab-ci.yml",
    ".gitlab-ci.yaml",
    ".gitlab/",
    "bitbucket-pipelines.yml",
    "azure-pipelines.yml",
    "azure-pipelines.yaml",
    ".azure-pipelines/",
    ".pipelines/",
    ".circleci/",
    "Jenkinsfile",
    "*.jenkinsfile",
    ".buildkite/",
    "buildkite.yml",
    "buildkite.yaml",
    "buildkite.json",
    ".drone.yml",
    ".drone.yaml",
    ".drone.jsonnet",
    ".drone.star",
    ".woodpecker.yml",
    ".woodpecker.yaml",
    ".woodpecker/",
    ".travis.yml",
    "appveyor.yml",
    ".appveyor.yml",
    ".cirrus.yml",
    ".cirrus.star",
    ".build.yml",
    ".builds/",
    ".semaphore/",
    ".teamcity/",
    ".tekton/",
    ".harness/",
    ".onedev-buildspec.yml",
    "cloudbuild.yaml",
    "cloudbuild.yml",
    "buildspec.yml",
    "buildspec.yaml",
    "codemagic.yaml",
    "bitrise.yml",
    "netlify.toml",
    "vercel.json",
    "render.yaml",
  ].map((pattern) => ({ pattern, reason: CI })),
  // Credentials and tool configuration that name commands to run.
  ...[
    ".netrc",
    ".ssh/",
    ".gnupg/",
    ".aws/",
    ".azure/",
    ".kube/",
    ".docker/",
    ".config/gcloud/",
    ".config/git/",
  ].map((pattern) => ({ pattern, reason: CREDENTIALS })),
  // A user's own startup directories, for a workspace that holds a home directory.
  ...[
    ".config/fish/",
    ".config/direnv/",
    ".config/autostart/",
    ".config/systemd/",
    ".config/environment.d/",
    ".config/nvim/",
    ".vimrc",
    ".gvimrc",
    ".vim/",
    ".emacs",
    ".emacs.d/",
    ".local/bin/",
  ].map((pattern) => ({ pattern, reason: HOME })),
];
