import type { HttpClient } from "./http/http-client.js";

type Fetch = typeof globalThis.fetch;

/** Options of {@link withBearerKey}. */
export interface BearerKeyOptions {
  /** A key known up front (an environment variable): sent with every request. */
  readonly apiKey?: string | undefined;
  /**
   * Looks a key up (the OS keyring) the first time the server answers 401, once per fetch;
   * the request is then sent again with it, and so is every later request.
   */
  readonly lookUpKey?: () => Promise<string | undefined>;
}

/**
 * The key a client sends: the known one, else none until the first 401, when `lookUpKey`
 * is asked once. `afterUnauthorized` gives the key to send the request again with, or
 * undefined when the 401 stands.
 */
function bearerKeyHolder(options: BearerKeyOptions) {
  let key = options.apiKey?.trim() || undefined;
  let looked = false;
  return {
    current: () => key,
    async afterUnauthorized(): Promise<string | undefined> {
      if (key !== undefined || looked || !options.lookUpKey) return undefined;
      looked = true;
      key = (await options.lookUpKey())?.trim() || undefined;
      return key;
    },
  };
}

/**
 * A fetch that sends `Authorization: Bearer <key>` once it has a key. A server that needs
 * none (a local Ollama, llama.cpp's server) is never asked for one and the keyring is never
 * read for it; a server that answers 401 gets the key from `lookUpKey`, once.
 */
export function withBearerKey(inner: Fetch, options: BearerKeyOptions): Fetch {
  const holder = bearerKeyHolder(options);
  const send = (input: Parameters<Fetch>[0], init: Parameters<Fetch>[1], withKey?: string) => {
    if (!withKey) return inner(input, init);
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${withKey}`);
    return inner(input, { ...init, headers });
  };
  return async (input, init) => {
    const response = await send(input, init, holder.current());
    if (response.status !== 401) return response;
    const key = await holder.afterUnauthorized();
    if (key === undefined) return response;
    await response.body?.cancel().catch(() => undefined);
    return send(input, init, key);
  };
}

/** {@link withBearerKey} for an {@link HttpClient}. */
export function withBearerKeyClient(inner: HttpClient, options: BearerKeyOptions): HttpClient {
  const holder = bearerKeyHolder(options);
  const send: HttpClient = (request) => {
    const key = holder.current();
    if (!key) return inner(request);
    return inner({ ...request, headers: { ...request.headers, authorization: `Bearer ${key}` } });
  };
  return async (request) => {
    const response = await send(request);
    if (response.status !== 401) return response;
    const key = await holder.afterUnauthorized();
    if (key === undefined) return response;
    response.cancel();
    return send(request);
  };
}
