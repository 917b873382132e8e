import path from "node:path";

/**
 * Shell startup files: whoever can write one runs code in the user's next shell. They
 * are protected wherever they appear, so a workspace that is a home directory is safe too.
 */
export const SHELL_STARTUP_FILES: ReadonlySet<string> = new Set([
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".kshrc",
  ".cshrc",
  ".tcshrc",
  ".inputrc",
  "config.fish",
]);

/**
 * Paths inside the workspace that run code later on the host when written: git hooks and
 * config (`core.fsmonitor`, `core.pager`, `core.sshCommand`), editor auto-run tasks,
 * direnv files, SSH keys. Relative to the root, `/`-separated; a directory entry protects
 * everything below it.
 */
export const PROTECTED_WORKSPACE_PATHS: readonly string[] = [
  ".git/hooks",
  ".git/config",
  ".git/info",
  ".vscode/tasks.json",
  ".vscode/settings.json",
  ".idea/workspace.xml",
  ".envrc",
  ".ssh",
  ".gnupg",
];

/** Directories whose removal or replacement as a whole is protected (`rm -rf .git`). */
export const PROTECTED_WORKSPACE_DIRECTORIES: readonly string[] = [".git"];

/**
 * Files that hold secrets: reading them is the first step of an exfiltration chain, so a
 * read needs a person's yes rather than running unasked.
 */
export function isSecretFileName(name: string): boolean {
  const base = path.basename(name).toLowerCase();
  return (
    base === ".env" ||
    base.startsWith(".env.") ||
    base === ".netrc" ||
    base === ".npmrc" ||
    base === ".pypirc" ||
    base === "credentials" ||
    base.startsWith("id_rsa") ||
    base.startsWith("id_ed25519") ||
    base.startsWith("id_ecdsa") ||
    base.endsWith(".pem") ||
    base.endsWith(".key") ||
    base.endsWith(".p12") ||
    base.endsWith(".pfx")
  );
}

function within(parent: string, candidate: string): boolean {
  const relative = path.relative(parent, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Whether writing `absolute` (a real path) is protected for a workspace at `root`. */
export function isProtectedPath(
  root: string,
  absolute: string,
  extra: readonly string[] = [],
): boolean {
  if (SHELL_STARTUP_FILES.has(path.basename(absolute))) return true;
  if (extra.some((protectedPath) => within(protectedPath, absolute))) return true;
  if (!within(root, absolute)) return false;
  const relative = path.relative(root, absolute);
  if (PROTECTED_WORKSPACE_DIRECTORIES.some((directory) => relative === directory)) return true;
  return PROTECTED_WORKSPACE_PATHS.some((entry) => within(path.join(root, entry), absolute));
}
