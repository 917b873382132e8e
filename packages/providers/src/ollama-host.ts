import { isHttpUrlWithoutCredentials } from "@xzatoma/core";

/** Where Ollama listens unless told otherwise. */
export const DEFAULT_OLLAMA_HOST = "http://localhost:11434";

/**
 * Normalises an Ollama host as users write it (`OLLAMA_HOST` accepts `host:port`
 * without a scheme, and some write the `/api` suffix): the result is a base URL with a
 * scheme and no trailing slash or `/api`.
 */
export function normalizeOllamaHost(host: string): string {
  let value = host.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) value = `http://${value}`;
  const url = new URL(value);
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api$/, "");
  return `${url.protocol}//${url.host}${path}`;
}

/** Resolves the host: explicit option, then `OLLAMA_HOST`, then {@link DEFAULT_OLLAMA_HOST}. */
export function resolveOllamaHost(
  option: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const chosen =
    option ?? (env["OLLAMA_HOST"]?.trim() ? env["OLLAMA_HOST"] : undefined) ?? DEFAULT_OLLAMA_HOST;
  return normalizeOllamaHost(chosen);
}

/**
 * Whether `value` is an Ollama host as users write it (`host:port` or a URL, see
 * {@link normalizeOllamaHost}) that normalises to an http(s) URL without credentials.
 */
export function isOllamaHost(value: string): boolean {
  if (value.trim() === "") return false;
  try {
    return isHttpUrlWithoutCredentials(normalizeOllamaHost(value));
  } catch {
    return false;
  }
}
