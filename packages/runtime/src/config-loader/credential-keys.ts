import type { KeySegments } from "./key-path.js";

const CREDENTIAL_WORDS = new Set([
  "apikey",
  "token",
  "password",
  "passwd",
  "secret",
  "credential",
  "credentials",
]);

const SECRET_KEY_QUALIFIERS = new Set([
  "api",
  "access",
  "private",
  "secret",
  "auth",
  "client",
  "signing",
  "encryption",
  "license",
]);

/** Whether a config key names a credential (`api_key`, `token`, `clientSecret`, `password`, ...). */
export function isCredentialKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  if (words.some((word) => CREDENTIAL_WORDS.has(word))) return true;
  // `key` alone or after a word that makes it a secret (`api_key`, `private_key`), not `key_bindings`.
  return words.some(
    (word, index) =>
      word === "key" && (words.length === 1 || SECRET_KEY_QUALIFIERS.has(words[index - 1] ?? "")),
  );
}

/** Every credential-looking key in a parsed config file, as key paths. */
export function findCredentialKeys(value: unknown, prefix: KeySegments = []): KeySegments[] {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => findCredentialKeys(item, [...prefix, index]));
  }
  if (typeof value !== "object" || value === null) return [];
  const found: KeySegments[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (isCredentialKey(key)) found.push([...prefix, key]);
    else found.push(...findCredentialKeys(child, [...prefix, key]));
  }
  return found;
}

/** A copy of `value` without the keys at `paths`. */
export function withoutKeys(value: unknown, paths: readonly KeySegments[]): unknown {
  const dropped = new Set(paths.map((path) => JSON.stringify(path)));
  const copy = (node: unknown, at: KeySegments): unknown => {
    if (Array.isArray(node)) return node.map((item, index) => copy(item, [...at, index]));
    if (typeof node !== "object" || node === null) return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => !dropped.has(JSON.stringify([...at, key])))
        .map(([key, child]) => [key, copy(child, [...at, key])]),
    );
  };
  return copy(value, []);
}

/** The facts behind a credential found in the config file, for a front end to word advice. */
export interface CredentialInFile {
  readonly message: string;
  /** The provider whose credential it is (`openai`, `copilot`), when under `provider.<type>`. */
  readonly provider?: string;
  /** The environment variable that holds this credential instead, when there is one. */
  readonly variable?: string;
}

const CREDENTIAL_VARIABLES: Readonly<Record<string, string>> = {
  openai: "OPENAI_API_KEY",
  copilot: "COPILOT_GITHUB_TOKEN",
};

/**
 * What is wrong with the credential at `path` in the config file, and the facts a front end
 * needs to say what to do instead (its own sign-in command is the front end's to name).
 */
export function credentialInFile(path: KeySegments): CredentialInFile {
  const [section, provider] = path;
  const variable =
    section === "provider" && typeof provider === "string"
      ? CREDENTIAL_VARIABLES[provider]
      : undefined;
  const instead =
    variable !== undefined
      ? `keep it in the keyring or the environment variable ${variable}`
      : section === "provider"
        ? "keep it in the keyring or the provider's environment variable"
        : "use the environment variable the feature documents";
  return {
    message: `credentials never live in the config file; remove this key and ${instead}`,
    ...(section === "provider" && typeof provider === "string" ? { provider } : {}),
    ...(variable !== undefined ? { variable } : {}),
  };
}
