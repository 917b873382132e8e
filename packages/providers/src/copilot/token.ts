import { describeError, ProviderError, ProviderUnavailableError } from "@xzatoma/core";
import { fetchFailureReason } from "../provider-errors.js";
import { findApiCallError, networkErrorCode } from "../retry/failures.js";
import { requestJson } from "../retry/http.js";
import { DEFAULT_COPILOT_HEADERS, DEFAULT_COPILOT_URLS, type CopilotHeaders } from "./defaults.js";
import { CopilotAuthError } from "./errors.js";

type Fetch = typeof globalThis.fetch;

/** A usable Copilot credential and the API it is for. */
export interface CopilotSession {
  /** Sent as `Authorization: Bearer`. */
  readonly token: string;
  /** The Copilot API base URL, without a trailing slash. */
  readonly baseURL: string;
  /** When the token expires (ms since the epoch); undefined for tokens that do not. */
  readonly expiresAt: number | undefined;
  /** When to get a new one (ms since the epoch); undefined when never. */
  readonly refreshAt: number | undefined;
}

/** Options of {@link createCopilotTokenSource}. */
export interface CopilotTokenOptions {
  /**
   * Returns the GitHub OAuth token (from the keyring, a device flow, ...), or undefined
   * when nobody has signed in. Asked again whenever a Copilot token is needed.
   */
  readonly getGithubToken?: () => Promise<string | undefined>;
  /** Environment for `COPILOT_GITHUB_TOKEN`, the fallback token. Default `process.env`, read at creation. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Exchange the GitHub token for a Copilot token (`GET tokenUrl`). Default true. False
   * for OAuth apps whose GitHub token the Copilot API accepts directly.
   */
  readonly exchange?: boolean;
  readonly tokenUrl?: string;
  /**
   * The Copilot API base URL. When set it wins over the one the token exchange names
   * (`endpoints.api`); when not, that one is used, else `https://api.githubcopilot.com`.
   */
  readonly apiBaseUrl?: string;
  /** Editor headers for the exchange request. */
  readonly headers?: Partial<CopilotHeaders>;
  /** Refresh this long before expiry (capped at half the token's lifetime). Default 60 s. */
  readonly refreshMarginMs?: number;
  readonly fetch?: Fetch;
  /** Clock in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

/** Hands out Copilot sessions, exchanging and refreshing tokens as needed. */
export interface CopilotTokenSource {
  /** A session valid now: the cached one, or a fresh one when it is due for refresh. */
  get(signal?: AbortSignal): Promise<CopilotSession>;
  /** Forgets `token` (the API rejected it) and returns a fresh session. */
  refresh(token: string, signal?: AbortSignal): Promise<CopilotSession>;
  /** Whether a rejected token can be replaced by another exchange. */
  readonly exchanges: boolean;
  /** Every credential this source has handled, for redaction. */
  secrets(): readonly string[];
}

interface TokenResponse {
  token?: unknown;
  expires_at?: unknown;
  refresh_in?: unknown;
  endpoints?: { api?: unknown } | null;
}

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Creates a {@link CopilotTokenSource}. Nothing is requested until `get` is called. */
export function createCopilotTokenSource(options: CopilotTokenOptions = {}): CopilotTokenSource {
  const env = options.env ?? process.env;
  const envToken = env["COPILOT_GITHUB_TOKEN"]?.trim() || undefined;
  const exchanges = options.exchange ?? true;
  const tokenUrl = options.tokenUrl ?? DEFAULT_COPILOT_URLS.tokenUrl;
  const explicitBase = options.apiBaseUrl?.replace(/\/+$/, "");
  const fallbackBase = explicitBase ?? DEFAULT_COPILOT_URLS.apiBaseUrl;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const margin = options.refreshMarginMs ?? 60_000;
  const headers = { ...DEFAULT_COPILOT_HEADERS, ...options.headers };
  const seen = new Set<string>();
  let current: CopilotSession | undefined;
  let pending: Promise<CopilotSession> | undefined;

  const remember = (secret: string) => {
    seen.add(secret);
    if (seen.size > 16) seen.delete(seen.values().next().value as string);
  };

  async function githubToken(): Promise<string> {
    let token: string | undefined;
    try {
      token = (await options.getGithubToken?.())?.trim() || undefined;
    } catch (error) {
      throw new CopilotAuthError(
        "not-signed-in",
        `Could not read the GitHub token for Copilot: ${describeError(error)}`,
        { cause: error, fields: { provider: "copilot" } },
      );
    }
    token ??= envToken;
    if (!token) {
      throw new CopilotAuthError(
        "not-signed-in",
        "Not signed in to GitHub Copilot: no GitHub token in COPILOT_GITHUB_TOKEN, GITHUB_TOKEN or the keyring.",
        { fields: { provider: "copilot" } },
      );
    }
    remember(token);
    return token;
  }

  async function exchange(signal?: AbortSignal): Promise<CopilotSession> {
    const github = await githubToken();
    if (!exchanges) {
      return { token: github, baseURL: fallbackBase, expiresAt: undefined, refreshAt: undefined };
    }
    let value: unknown;
    const requestedAt = now();
    try {
      ({ value } = await requestJson(fetchImpl, tokenUrl, {
        headers: {
          accept: "application/json",
          authorization: `token ${github}`,
          "editor-version": headers["Editor-Version"],
          "editor-plugin-version": headers["Editor-Plugin-Version"],
          "user-agent": headers["User-Agent"],
        },
        ...(signal ? { signal } : {}),
      }));
    } catch (error) {
      throw exchangeError(error);
    }
    const body = (value ?? {}) as TokenResponse;
    if (typeof body.token !== "string" || body.token === "") {
      throw new CopilotAuthError(
        "no-access",
        "GitHub answered the Copilot token request without a token: this account may have no Copilot access.",
        { fields: { provider: "copilot" } },
      );
    }
    remember(body.token);
    const expiresAt =
      typeof body.expires_at === "number" && body.expires_at > 0
        ? body.expires_at * 1000
        : undefined;
    let refreshAt: number | undefined;
    if (expiresAt !== undefined) {
      const lifetime = Math.max(0, expiresAt - requestedAt);
      refreshAt = expiresAt - Math.min(margin, lifetime / 2);
    }
    if (typeof body.refresh_in === "number" && body.refresh_in > 0) {
      const byRefreshIn = requestedAt + body.refresh_in * 1000;
      refreshAt = refreshAt === undefined ? byRefreshIn : Math.min(refreshAt, byRefreshIn);
    }
    const api = typeof body.endpoints?.api === "string" ? body.endpoints.api : undefined;
    return {
      token: body.token,
      baseURL: explicitBase ?? api?.replace(/\/+$/, "") ?? fallbackBase,
      expiresAt,
      refreshAt,
    };
  }

  function exchangeError(error: unknown): Error {
    const api = findApiCallError(error);
    const status = api?.statusCode;
    if (status === 401) {
      return new CopilotAuthError(
        "rejected",
        "GitHub rejected the token used for Copilot (HTTP 401): it was revoked or has expired.",
        { cause: error, fields: { provider: "copilot" } },
      );
    }
    if (status === 403 || status === 404) {
      return new CopilotAuthError(
        "no-access",
        `GitHub refused a Copilot token (HTTP ${status}): this account has no Copilot access, or the token is a classic personal access token, which Copilot does not accept.`,
        { cause: error, fields: { provider: "copilot" } },
      );
    }
    if (status !== undefined) {
      return new ProviderError(
        `GitHub answered the Copilot token request with an error (HTTP ${status}): ${api?.message ?? ""}`.trim(),
        { cause: error, fields: { provider: "copilot", url: origin(tokenUrl), status } },
      );
    }
    const code = networkErrorCode(error) ?? fetchFailureReason(error);
    if (code) {
      return new ProviderUnavailableError(
        `Cannot reach GitHub at ${origin(tokenUrl)} to get a Copilot token (${code}).`,
        { cause: error, fields: { provider: "copilot", url: origin(tokenUrl), reason: code } },
      );
    }
    if (error instanceof Error && error.name === "AbortError") return error;
    return new ProviderError(`Getting a Copilot token failed: ${describeError(error)}`, {
      cause: error,
    });
  }

  function renew(signal?: AbortSignal): Promise<CopilotSession> {
    pending ??= exchange(signal)
      .then((session) => {
        current = session;
        return session;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  }

  return {
    exchanges,
    async get(signal) {
      const session = current;
      if (session && (session.refreshAt === undefined || now() < session.refreshAt)) return session;
      return renew(signal);
    },
    async refresh(token, signal) {
      if (current?.token === token) current = undefined;
      return current ?? renew(signal);
    },
    secrets: () => [...seen],
  };
}
