import { pathComponents } from "./path-rules.js";

/**
 * The one classifier of secret-looking paths. Reading one is the first step of an
 * exfiltration chain, so every way of reading (read_file, grep, diff_files, copies,
 * @mentions, terminal commands) needs a person's yes, and once anything secret was read
 * in a run, sending data to a host the user has not allowed needs a yes too.
 */

/** File names (lower case) that hold credentials. */
export const SECRET_FILE_NAMES: readonly string[] = [
  ".env",
  ".envrc",
  ".netrc",
  "_netrc",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".git-credentials",
  ".pgpass",
  ".my.cnf",
  ".vault-token",
  ".htpasswd",
  ".secrets",
  "credentials",
  "kubeconfig",
  "application_default_credentials.json",
  "access_tokens.db",
  "terraform.tfstate",
  "terraform.tfstate.backup",
  ".gitconfig",
];

/** File name endings (lower case) of key stores and credential files. */
export const SECRET_FILE_SUFFIXES: readonly string[] = [
  ".env",
  ".pem",
  ".key",
  ".p12",
  ".pfx",
  ".jks",
  ".keystore",
  ".ppk",
  ".kdbx",
  ".tfvars",
  ".tfstate",
  "-credentials.json",
  "_credentials.json",
];

/** File name beginnings (lower case): private SSH keys, `.env.*`, `secrets.*`, `credentials.*`. */
export const SECRET_FILE_PREFIXES: readonly string[] = [
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
  ".env.",
  "secrets.",
  "secret.",
  "credentials.",
  "service-account",
];

/** Directories (as consecutive components, lower case) whose every file is secret. */
export const SECRET_DIRECTORIES: readonly (readonly string[])[] = [
  [".ssh"],
  [".gnupg"],
  [".aws"],
  [".azure"],
  [".kube"],
  [".docker"],
  [".password-store"],
  [".config", "gcloud"],
  [".local", "share", "keyrings"],
];

/**
 * Git's configuration files (lower case). Inside a git directory they carry CI and clone
 * credentials (`http.*.extraheader`, remote URLs with `user:token@`), so they are secret
 * there (see {@link isSecretPath}).
 */
export const GIT_CONFIG_NAMES: readonly string[] = ["config", "config.worktree"];

/** `.env.example` and friends are templates by convention and hold no real values. */
const TEMPLATE_SUFFIXES = [".example", ".sample", ".template", ".dist", ".defaults"];

function containsSequence(components: readonly string[], sequence: readonly string[]): boolean {
  for (let start = 0; start + sequence.length <= components.length; start++) {
    if (sequence.every((name, offset) => components[start + offset] === name)) return true;
  }
  return false;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const SECRET_NAME_SET = new Set(SECRET_FILE_NAMES);
/** One regex for every secret prefix and suffix: a name is tested in one native pass. */
const SECRET_AFFIX = new RegExp(
  `^(?:${SECRET_FILE_PREFIXES.map(escapeRegex).join("|")})|(?:${SECRET_FILE_SUFFIXES.map(escapeRegex).join("|")})$`,
);
const TEMPLATE_SUFFIX = new RegExp(`(?:${TEMPLATE_SUFFIXES.map(escapeRegex).join("|")})$`);
/** The first component of every secret directory: a path containing none has none of them. */
const SECRET_DIRECTORY_HEADS = [...new Set(SECRET_DIRECTORIES.map((sequence) => sequence[0]))];

/**
 * Whether the lower-case `components` name git's configuration: `config` or
 * `config.worktree` anywhere below a git directory (`.git`, a bare `name.git`, and so a
 * worktree's `.git/worktrees/NAME/config.worktree` and a submodule's
 * `.git/modules/NAME/config` at any depth), or the user's `.config/git/config`.
 */
function isGitConfigPath(components: readonly string[]): boolean {
  const name = components.at(-1);
  if (name === undefined || !GIT_CONFIG_NAMES.includes(name)) return false;
  const directories = components.slice(0, -1);
  if (directories.some((directory) => directory === ".git" || directory.endsWith(".git")))
    return true;
  return directories.at(-1) === "git" && directories.at(-2) === ".config";
}

/** Whether the lower-case `name` (a path's last component) looks secret by itself. */
function isSecretName(name: string): boolean {
  if (TEMPLATE_SUFFIX.test(name)) return false;
  return SECRET_NAME_SET.has(name) || SECRET_AFFIX.test(name);
}

/**
 * Whether `filePath` (a name, or a path with `/` separators, relative or absolute) looks
 * like it holds secrets. Case-insensitive.
 *
 * Called for every file a search walks, so the common case costs one lower-casing, a few
 * substring tests and two precompiled regexes; a path that ends in a separator or `.` is
 * split into components as before.
 *
 * @example
 * isSecretPath(".env.production");   // true
 * isSecretPath("home/.aws/config");  // true
 * isSecretPath("vendor/lib/.git/config"); // true: clone and CI credentials
 * isSecretPath(".env.example");      // false
 */
export function isSecretPath(filePath: string): boolean {
  const lower = filePath.toLowerCase();
  const last = Math.max(lower.lastIndexOf("/"), lower.lastIndexOf("\\"));
  const name = lower.slice(last + 1);
  // A secret directory is a run of whole components; its first one must occur as text.
  const mayHaveDirectory =
    SECRET_DIRECTORY_HEADS.some((head) => lower.includes(head as string)) ||
    (GIT_CONFIG_NAMES.includes(name) && lower.includes("git"));
  if (name === "" || name === "." || mayHaveDirectory) return isSecretByComponents(filePath);
  return isSecretName(name);
}

/** {@link isSecretPath} by the path's components: the general case. */
function isSecretByComponents(filePath: string): boolean {
  const components = pathComponents(filePath);
  const name = components.at(-1);
  if (name === undefined) return false;
  if (SECRET_DIRECTORIES.some((sequence) => containsSequence(components, sequence))) return true;
  if (isGitConfigPath(components)) return true;
  return isSecretName(name);
}
