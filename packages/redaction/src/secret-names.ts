/**
 * Whether a key, variable, header, flag or element name names a secret: `password`,
 * `DB_PASS`, `clientSecret`, `x-api-key`, `AccountKey`, `_authToken`, `X-Amz-Signature`,
 * kubeconfig's `client-key-data` and `client-certificate-data`, `SSHPASS`.
 * Names that merely mention one are not: `max_tokens`, `secret_name`, `token_type`,
 * `private_key_path`, `tokenizer`, `author`, `PWD` (the working directory).
 */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])|([A-Z])([A-Z][a-z])/g, "$1$3 $2$4")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  const last = words.at(-1);
  if (last === undefined) return false;
  const joined = words.join("");
  if (joined === "pwd" || joined === "oldpwd") return false;
  if (SECRET_WORDS.has(last)) return true;
  // kubeconfig's client credentials: client-key-data, client-certificate-data.
  if (last === "data" && (words.at(-2) === "key" || joined === "clientcertificatedata"))
    return true;
  if (last === "key" && words.length > 1 && KEY_QUALIFIERS.has(words.at(-2) ?? "")) return true;
  return SECRET_SUFFIXES.some((suffix) => joined.endsWith(suffix));
}

/** A name whose last word is one of these names a secret. */
const SECRET_WORDS = new Set([
  "apikey",
  "auth",
  "cookie",
  "credential",
  "credentials",
  "pass",
  "passphrase",
  "passwd",
  "password",
  "passwords",
  "pwd",
  "secret",
  "secrets",
  "sig",
  "signature",
  "sshpass",
  "token",
]);

/** `<qualifier> key` names a secret (`api key`, `access key`); a bare `key` does not. */
const KEY_QUALIFIERS = new Set([
  "access",
  "account",
  "api",
  "app",
  "auth",
  "client",
  "consumer",
  "encryption",
  "license",
  "master",
  "private",
  "secret",
  "service",
  "session",
  "shared",
  "signing",
  "storage",
  "subscription",
]);

/** Names written as one word (`accountkey`, `accesstoken`) end with one of these. */
const SECRET_SUFFIXES = [
  "accesskey",
  "accountkey",
  "apikey",
  "authkey",
  "passphrase",
  "passwd",
  "password",
  "privatekey",
  "secret",
  "secretkey",
  "sharedkey",
  "signingkey",
  "token",
];
