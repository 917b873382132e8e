import { isSecretName } from "@xzatoma/redaction";

/** What any program needs to run as the user: who, where, which shell, terminal and locale. */
const BASE = new Set([
  "HOME",
  "LOGNAME",
  "USER",
  "PATH",
  "SHELL",
  "TERM",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TMPDIR",
  "XDG_CACHE_HOME",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_RUNTIME_DIR",
]);

/**
 * What reaching the network needs, in the spellings the user's shell may have set
 * (compared case-insensitively: `https_proxy` and `HTTPS_PROXY` alike): proxies, and the CA
 * bundles of a network that inspects TLS, for Node, OpenSSL, curl, Python and git.
 */
const NETWORK = new Set([
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "ftp_proxy",
  "node_extra_ca_certs",
  "node_use_env_proxy",
  "node_use_system_ca",
  "ssl_cert_file",
  "ssl_cert_dir",
  "requests_ca_bundle",
  "curl_ca_bundle",
  "git_ssl_cainfo",
  "git_ssl_capath",
]);

/**
 * Families of settings a server's launcher reads: the locale (`LC_*`) and npm's, so npx's
 * (`npm_config_registry`, `npm_config_cafile`, `npm_config_proxy`). Their secrets
 * (`npm_config__authToken`) are left out by name, as every variable's are.
 */
const FAMILIES = [/^LC_[A-Z]+$/, /^npm_config_/i];

/** Whether `name` is let through to a server, before the secret check. */
function isInherited(name: string): boolean {
  return (
    BASE.has(name) ||
    NETWORK.has(name.toLowerCase()) ||
    FAMILIES.some((family) => family.test(name))
  );
}

/**
 * The environment every MCP stdio server starts with, before its own `env`: what it needs
 * to run as the user and to reach the network as the user's shell would (proxies, CA
 * bundles, npm's registry settings for `npx`), and nothing that names a secret. A proxy
 * URL is passed as it is, with any user and password in it: the server cannot reach the
 * network without them, as the user's own programs cannot. A variable
 * whose name is a credential by its class (`*_TOKEN`, `*_API_KEY`, `*_SECRET`,
 * `*_PASSWORD`, `npm_config__authToken`, ...; the redactor's `isSecretName`) never passes,
 * whatever family it belongs to; a server that needs one gets it by name in its `env`
 * (`GITHUB_TOKEN: ${GITHUB_TOKEN}`). Exported shell functions (`() {...`) never pass.
 */
export function mcpServerEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.startsWith("()")) continue;
    if (!isInherited(name) || isSecretName(name)) continue;
    inherited[name] = value;
  }
  return inherited;
}
