import { APICallError } from "@ai-sdk/provider";
import { errorBodyMessage, requestJson } from "../retry/http.js";
import { defaultSleep, type RetryOptions, type Sleep } from "../retry/retry-policy.js";
import { retryRequest } from "../retry/with-retries.js";
import {
  DEFAULT_COPILOT_CLIENT_ID,
  DEFAULT_COPILOT_HEADERS,
  DEFAULT_COPILOT_SCOPE,
  DEFAULT_COPILOT_URLS,
} from "./defaults.js";
import { CopilotAuthError } from "./errors.js";

type Fetch = typeof globalThis.fetch;

/** Options of {@link startDeviceFlow}. */
export interface DeviceFlowOptions {
  /** The OAuth app's client id. Default {@link DEFAULT_COPILOT_CLIENT_ID}. */
  readonly clientId?: string;
  /** Default `read:user`. */
  readonly scope?: string;
  readonly deviceCodeUrl?: string;
  readonly accessTokenUrl?: string;
  readonly userAgent?: string;
  readonly fetch?: Fetch;
  /** Waits between polls; injectable for tests. */
  readonly sleep?: Sleep;
  /** Clock in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
  /** Retries of each request on 429, 5xx and connection errors. */
  readonly retry?: RetryOptions;
  readonly signal?: AbortSignal;
}

/** The GitHub token a completed device flow yields. */
export interface GithubOAuthToken {
  readonly accessToken: string;
  readonly tokenType: string;
  readonly scope: string;
}

/** A device flow waiting for the user. */
export interface DeviceFlow {
  /** The code the user enters, e.g. `ABCD-1234`. */
  readonly userCode: string;
  /** Where the user enters it, e.g. `https://github.com/login/device`. */
  readonly verificationUri: string;
  /** When the code expires (ms since the epoch). */
  readonly expiresAt: number;
  /** The polling interval GitHub asked for, in ms (grows on `slow_down`). */
  readonly intervalMs: number;
  /**
   * Polls until the user has authorized, then resolves with the GitHub token. Waits
   * `interval` between polls, 5 s more after each `slow_down`; rejects with a
   * {@link CopilotAuthError} on `expired_token` (`expired`), `access_denied` (`denied`)
   * or any other error (`device-flow`).
   */
  poll(options?: { readonly signal?: AbortSignal }): Promise<GithubOAuthToken>;
}

interface DeviceCodeResponse {
  device_code?: unknown;
  user_code?: unknown;
  verification_uri?: unknown;
  expires_in?: unknown;
  interval?: unknown;
}

interface AccessTokenResponse {
  access_token?: unknown;
  token_type?: unknown;
  scope?: unknown;
  error?: unknown;
  error_description?: unknown;
  interval?: unknown;
}

/**
 * Starts GitHub's OAuth device flow: asks for a device code, and returns the code to
 * show the user with a `poll()` that waits for the authorization.
 *
 * @example
 * const flow = await startDeviceFlow();
 * console.log(`Visit ${flow.verificationUri} and enter ${flow.userCode}`);
 * const { accessToken } = await flow.poll();
 */
export async function startDeviceFlow(options: DeviceFlowOptions = {}): Promise<DeviceFlow> {
  const clientId = options.clientId ?? DEFAULT_COPILOT_CLIENT_ID;
  const scope = options.scope ?? DEFAULT_COPILOT_SCOPE;
  const deviceCodeUrl = options.deviceCodeUrl ?? DEFAULT_COPILOT_URLS.deviceCodeUrl;
  const accessTokenUrl = options.accessTokenUrl ?? DEFAULT_COPILOT_URLS.accessTokenUrl;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const headers = {
    accept: "application/json",
    "content-type": "application/x-www-form-urlencoded",
    "user-agent": options.userAgent ?? DEFAULT_COPILOT_HEADERS["User-Agent"],
  };
  const wording = (url: string) => ({
    providerName: "GitHub",
    provider: "copilot",
    baseUrl: new URL(url).origin,
    unreachableHint: "Check the network connection.",
  });
  const retry = (url: string, signal: AbortSignal | undefined) => ({
    ...options.retry,
    ...(options.sleep ? { sleep: options.sleep } : {}),
    wording: wording(url),
    ...(signal ? { signal } : {}),
  });

  const { value } = await retryRequest(
    (signal) =>
      requestJson(fetchImpl, deviceCodeUrl, {
        method: "POST",
        headers,
        body: new URLSearchParams({ client_id: clientId, scope }).toString(),
        signal,
      }),
    retry(deviceCodeUrl, options.signal),
  );
  const code = (value ?? {}) as DeviceCodeResponse;
  if (
    typeof code.device_code !== "string" ||
    typeof code.user_code !== "string" ||
    typeof code.verification_uri !== "string"
  ) {
    throw new CopilotAuthError(
      "device-flow",
      "GitHub's device-code answer lacks the device code, user code or verification URL.",
    );
  }
  const deviceCode = code.device_code;
  const expiresIn = typeof code.expires_in === "number" ? code.expires_in : 900;
  const expiresAt = now() + expiresIn * 1000;
  let intervalMs = (typeof code.interval === "number" ? code.interval : 5) * 1000;

  async function pollOnce(signal: AbortSignal | undefined): Promise<AccessTokenResponse> {
    return retryRequest(
      async (attemptSignal) => {
        const response = await fetchImpl(accessTokenUrl, {
          method: "POST",
          headers,
          body: new URLSearchParams({
            client_id: clientId,
            device_code: deviceCode,
            grant_type: "urn:ietf:params:oauth:grant-type:device_code",
          }).toString(),
          signal: attemptSignal,
        });
        const text = await response.text();
        try {
          const body = JSON.parse(text) as AccessTokenResponse;
          if (response.ok || typeof body.error === "string") return body;
        } catch {
          // Not JSON: reported below.
        }
        const responseHeaders: Record<string, string> = {};
        response.headers.forEach((headerValue, key) => (responseHeaders[key] = headerValue));
        throw new APICallError({
          message: errorBodyMessage(text) ?? `HTTP ${response.status}`,
          url: accessTokenUrl,
          requestBodyValues: undefined,
          statusCode: response.status,
          responseHeaders,
          responseBody: text.slice(0, 1000),
        });
      },
      retry(accessTokenUrl, signal),
    );
  }

  return {
    userCode: code.user_code,
    verificationUri: code.verification_uri,
    expiresAt,
    get intervalMs() {
      return intervalMs;
    },
    async poll(pollOptions = {}) {
      const signal = pollOptions.signal ?? options.signal;
      for (;;) {
        await sleep(intervalMs, signal);
        if (now() >= expiresAt) {
          throw new CopilotAuthError(
            "expired",
            "The GitHub sign-in code expired before it was entered. Start the sign-in again.",
          );
        }
        const answer = await pollOnce(signal);
        if (typeof answer.access_token === "string" && answer.access_token !== "") {
          return {
            accessToken: answer.access_token,
            tokenType: typeof answer.token_type === "string" ? answer.token_type : "bearer",
            scope: typeof answer.scope === "string" ? answer.scope : scope,
          };
        }
        switch (answer.error) {
          case "authorization_pending":
            continue;
          case "slow_down": {
            const asked = typeof answer.interval === "number" ? answer.interval * 1000 : 0;
            intervalMs = Math.max(intervalMs + 5000, asked);
            continue;
          }
          case "expired_token":
            throw new CopilotAuthError(
              "expired",
              "The GitHub sign-in code expired before it was entered. Start the sign-in again.",
            );
          case "access_denied":
            throw new CopilotAuthError(
              "denied",
              "The GitHub sign-in was declined: access was denied.",
            );
          default: {
            const description =
              typeof answer.error_description === "string" ? `: ${answer.error_description}` : "";
            throw new CopilotAuthError(
              "device-flow",
              `GitHub sign-in failed (${String(answer.error ?? "no token in the answer")})${description}`,
            );
          }
        }
      }
    },
  };
}
