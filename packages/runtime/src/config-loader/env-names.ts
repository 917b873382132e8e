/** The prefix of every derived variable name. */
export const ENV_PREFIX = "XZATOMA_";

/**
 * The environment variable of a key path: `XZATOMA_` and the path in upper case, dots
 * as underscores.
 *
 * @example
 * environmentVariableOf("provider.ollama.host"); // "XZATOMA_PROVIDER_OLLAMA_HOST"
 */
export function environmentVariableOf(keyPath: string): string {
  return `${ENV_PREFIX}${keyPath.toUpperCase().replace(/\./g, "_")}`;
}
