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
  ".netrc",
  "_netrc",
  ".npmrc",
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

/** `.env.example` and friends are templates by convention and hold no real values. */
const TEMPLATE_SUFFIXES = [".example", ".sample", ".template", ".dist", ".defaults"];

function containsSequence(components: readonly string[], sequence: readonly string[]): boolean {
  for (let start = 0; start + sequence.length <= components.length; start++) {
    if (sequence.every((name, offset) => components[start + offset] === name)) return true;
  }
  return false;
}

/**
 * Whether `filePath` (a name, or a path with `/` separators, relative or absolute) looks
 * like it holds secrets. Case-insensitive.
 *
 * @example
 * isSecretPath(".env.production");   // true
 * isSecretPath("home/.aws/config");  // true
 * isSecretPath(".env.example");      // false
 */
export function isSecretPath(filePath: string): boolean {
  const components = pathComponents(filePath);
  const name = components.at(-1);
  if (name === undefined) return false;
  if (SECRET_DIRECTORIES.some((sequence) => containsSequence(components, sequence))) return true;
  if (TEMPLATE_SUFFIXES.some((suffix) => name.endsWith(suffix))) return false;
  return (
    SECRET_FILE_NAMES.includes(name) ||
    SECRET_FILE_SUFFIXES.some((suffix) => name.endsWith(suffix)) ||
    SECRET_FILE_PREFIXES.some((prefix) => name.startsWith(prefix))
  );
}
