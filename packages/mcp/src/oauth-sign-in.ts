import type { AddressInfo } from "node:net";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

/** Where sign-ins are kept: the OS keyring in XZatoma (one entry per server). */
export interface McpSecretStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<unknown>;
  delete(key: string): Promise<unknown>;
}

/** OAuth for streamable HTTP servers that ask for it (a 401 with OAuth metadata). */
export interface McpOAuthOptions {
  /** Keeps each server's tokens and client registration (the runtime passes the OS keyring). */
  readonly store: McpSecretStore;
  /**
   * Shows a person the URL to open to sign in to `server`. Absent: nobody can sign in here
   * (`run`, the watcher), and a server that needs it fails with a message saying how to.
   */
  readonly authorize?: (server: string, url: URL) => void | Promise<void>;
  /** How long to wait for the browser to come back. Default 300 s. */
  readonly signInTimeoutMs?: number;
}

/** What is stored for one server, as JSON. */
interface StoredSignIn {
  tokens?: OAuthTokens;
  client?: OAuthClientInformationMixed;
  /** The callback port the client was registered with, reused so its redirect URI stays valid. */
  port?: number;
}

/** The keyring account of a server's sign-in: `mcp-<name>`, lower case, at most 32 characters. */
export function signInKey(server: string): string {
  return `mcp-${server.toLowerCase().replace(/[^a-z0-9_-]/g, "-")}`.slice(0, 32);
}

/** One sign-in attempt for one server: the SDK's provider and the local callback listener. */
export interface ServerSignIn {
  readonly provider: OAuthClientProvider;
  /** The authorization URL the SDK asked to open, once it did. */
  readonly authorizationUrl: () => URL | undefined;
  /** Resolves with the code the browser brings back to the callback. */
  waitForCode(timeoutMs: number): Promise<string>;
  close(): Promise<void>;
}

const PAGE =
  "<!doctype html><title>XZatoma</title><p>Signed in. You can close this tab and return to XZatoma.</p>";

/**
 * Prepares OAuth for `server`: reads its stored sign-in and listens on 127.0.0.1 for the
 * authorization server's redirect (`/callback`), on the port the client registered with.
 */
export async function prepareSignIn(
  server: string,
  options: McpOAuthOptions,
): Promise<ServerSignIn> {
  // Loaded here, not at import: most sessions never sign in.
  const { createServer } = await import("node:http");
  const key = signInKey(server);
  let stored: StoredSignIn = {};
  try {
    stored = JSON.parse((await options.store.get(key)) ?? "{}") as StoredSignIn;
  } catch {
    stored = {};
  }
  const save = () => options.store.set(key, JSON.stringify(stored));
  let verifier = "";
  let state = "";
  let authorizationUrl: URL | undefined;
  let deliver: ((code: string) => void) | undefined;
  let reject: ((error: Error) => void) | undefined;
  const listener = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") {
      response.writeHead(404).end();
      return;
    }
    const code = url.searchParams.get("code");
    const error = url.searchParams.get("error");
    if (code && url.searchParams.get("state") === state) {
      response.writeHead(200, { "content-type": "text/html" }).end(PAGE);
      deliver?.(code);
    } else {
      response.writeHead(400, { "content-type": "text/plain" }).end("Sign-in failed.");
      reject?.(new Error(`the sign-in was refused (${error ?? "no code, or a wrong state"})`));
    }
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, fail) => {
      listener.once("error", fail);
      listener.listen(port, "127.0.0.1", () => {
        listener.off("error", fail);
        resolve();
      });
    });
  try {
    await listen(stored.port ?? 0);
  } catch {
    // The registered port is taken: listen elsewhere and register again.
    delete stored.client;
    await listen(0);
  }
  const port = (listener.address() as AddressInfo).port;
  if (stored.port !== port) stored.port = port;
  const redirectUrl = `http://127.0.0.1:${port}/callback`;
  const metadata: OAuthClientMetadata = {
    client_name: "XZatoma",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };

  const provider: OAuthClientProvider = {
    redirectUrl,
    clientMetadata: metadata,
    state: () => {
      state = crypto.randomUUID();
      return state;
    },
    clientInformation: () => stored.client,
    async saveClientInformation(client) {
      stored.client = client;
      await save();
    },
    tokens: () => stored.tokens,
    async saveTokens(tokens) {
      stored.tokens = tokens;
      await save();
    },
    async redirectToAuthorization(url) {
      authorizationUrl = url;
      await options.authorize?.(server, url);
    },
    saveCodeVerifier(codeVerifier) {
      verifier = codeVerifier;
    },
    codeVerifier: () => verifier,
    async invalidateCredentials(scope) {
      if (scope === "all" || scope === "tokens") delete stored.tokens;
      if (scope === "all" || scope === "client") delete stored.client;
      await save();
    },
  };

  return {
    provider,
    authorizationUrl: () => authorizationUrl,
    waitForCode(timeoutMs) {
      return new Promise<string>((resolve, fail) => {
        const timer = setTimeout(
          () => fail(new Error(`no sign-in came back within ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
        deliver = (code) => {
          clearTimeout(timer);
          resolve(code);
        };
        reject = (error) => {
          clearTimeout(timer);
          fail(error);
        };
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  };
}
