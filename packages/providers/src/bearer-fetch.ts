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
 * A fetch that sends `Authorization: Bearer <key>` once it has a key. A server that needs
 * none (a local Ollama, llama.cpp's server) is never asked for one and the keyring is never
 * read for it; a server that answers 401 gets the key from `lookUpKey`, once.
 */
export function withBearerKey(inner: Fetch, options: BearerKeyOptions): Fetch {
  let key = options.apiKey?.trim() || undefined;
  let looked = false;
  const send = (input: Parameters<Fetch>[0], init: Parameters<Fetch>[1], withKey?: string) => {
    if (!withKey) return inner(input, init);
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${withKey}`);
    return inner(input, { ...init, headers });
  };
  return async (input, init) => {
    const response = await send(input, init, key);
    if (response.status !== 401 || key !== undefined || looked || !options.lookUpKey)
      return response;
    looked = true;
    key = (await options.lookUpKey())?.trim() || undefined;
    if (key === undefined) return response;
    await response.body?.cancel().catch(() => undefined);
    return send(input, init, key);
  };
}
