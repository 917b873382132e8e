/**
 * HTTP GET through the URL guard: the static check, connect-time address checks through
 * its own undici Agent (proxy environment variables and the global dispatcher are never
 * used), manual redirects re-checked hop by hop, a byte cap on the decoded body and one
 * deadline for the whole request.
 */
import type { Agent, fetch as undiciFetch } from "undici";
import { createAllowance, type UrlGuardOptions } from "./allowance.js";
import { checkUrlWith, type UrlDecision } from "./check-url.js";
import { followRedirects } from "./follow-redirects.js";
import { createGuardedConnector } from "./guarded-connector.js";
import {
  resolveAllowedAddresses,
  systemLookup,
  type LookupFunction,
  type ResolvedAddress,
} from "./guarded-lookup.js";
import { decodeBody, readCappedBody, type ByteCapAction } from "./read-body.js";
import { startDeadline, toFetchError } from "./request-errors.js";
import { UrlBlockedError } from "./url-blocked-error.js";

/** Options of {@link createGuardedFetch}. */
export interface GuardedFetchOptions extends UrlGuardOptions {
  /** Cap on the decoded body, in bytes. Default 1 MiB. */
  readonly maxBytes?: number;
  /** Past the cap: `error` (default) throws `too-large`; `truncate` keeps the first `maxBytes`. */
  readonly onLimit?: ByteCapAction;
  /** Deadline for the whole request, redirects and body included, in ms. Default 60 s. */
  readonly timeoutMs?: number;
  /** Redirects followed at most. Default 5. */
  readonly maxRedirects?: number;
  /** Resolves host names (all addresses). Default: the system resolver. */
  readonly lookup?: LookupFunction;
  /** Time to open one connection, in ms. Default 10 s. */
  readonly connectTimeoutMs?: number;
  /** The User-Agent header. */
  readonly userAgent?: string;
}

/** Per-request options of {@link GuardedFetch.fetch}. */
export interface GuardedFetchInit {
  /** Cancels the request (the error is the signal's reason, not a refusal). */
  readonly signal?: AbortSignal;
  /** A person approved this URL: a `confirm` URL may be fetched. Default false. */
  readonly confirmed?: boolean;
}

/** A response the guard let through. */
export interface GuardedResponse {
  /** The final URL, after redirects. */
  readonly url: string;
  readonly status: number;
  /** The Content-Type header, or "" when there is none. */
  readonly contentType: string;
  /** The decoded body as text (charset from Content-Type, UTF-8 otherwise). */
  readonly body: string;
  /** Decoded body bytes read. */
  readonly bytes: number;
  /** True when the body was cut at the cap (`onLimit: "truncate"` only). */
  readonly truncated: boolean;
  /** Every URL redirected to, in order. */
  readonly redirects: readonly string[];
}

/** A guarded fetcher. Close it when done. */
export interface GuardedFetch {
  /** The static check of a URL under this fetcher's options (see `checkUrl`). */
  check(url: string): UrlDecision;
  /** The connect-time check of `hostname:port`, without connecting: the addresses, or a UrlBlockedError. */
  resolve(hostname: string, port: number): Promise<readonly ResolvedAddress[]>;
  /** GETs a URL; throws UrlBlockedError when the guard refuses or stops it. */
  fetch(url: string, init?: GuardedFetchInit): Promise<GuardedResponse>;
  /** Closes every connection. */
  close(): Promise<void>;
}

const DEFAULT_USER_AGENT = "XZatoma-fetch/0.1 (+https://github.com/xzatoma/xzatoma)";

/**
 * Creates a guarded fetcher. A `block` URL throws {@link UrlBlockedError} before any
 * connection; a `confirm` URL does too unless `confirmed` is set. Redirect hops must be
 * `allow`, or `confirm` on an origin the person already confirmed.
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  const allowance = createAllowance(options);
  const lookup = options.lookup ?? systemLookup;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRedirects = options.maxRedirects ?? 5;
  // undici loads with the first request: most sessions never fetch, and it weighs ~25 MiB.
  let client: Promise<{ agent: Agent; fetch: typeof undiciFetch }> | undefined;
  const getClient = () =>
    (client ??= import("undici").then((undici) => ({
      agent: new undici.Agent({
        connect: createGuardedConnector(
          { allowance, lookup, connectTimeoutMs: options.connectTimeoutMs ?? 10_000 },
          undici.buildConnector,
        ),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      }),
      fetch: undici.fetch,
    })));

  return {
    check: (url) => checkUrlWith(url, allowance),
    resolve: (hostname, port) => resolveAllowedAddresses(hostname, port, allowance, lookup),
    async fetch(url, init = {}) {
      const decision = checkUrlWith(url, allowance);
      const target = decision.url ?? url.slice(0, 200);
      if (decision.url === undefined || decision.verdict === "block") {
        throw new UrlBlockedError(decision.reason, target, decision.refusal ?? "invalid-url");
      }
      if (decision.verdict === "confirm" && init.confirmed !== true) {
        throw new UrlBlockedError(
          `${decision.reason}, and no one confirmed it`,
          target,
          "needs-confirmation",
        );
      }
      const { agent, fetch } = await getClient();
      const deadline = startDeadline(timeoutMs, init.signal);
      try {
        const followed = await followRedirects(decision.url, {
          dispatcher: agent,
          fetch,
          allowance,
          maxRedirects,
          confirmed: init.confirmed === true,
          signal: deadline.signal,
          userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
        });
        const { response, url: finalUrl, redirects } = followed;
        const contentType = response.headers.get("content-type") ?? "";
        const body = await readCappedBody(response.body, {
          maxBytes,
          onLimit: options.onLimit ?? "error",
          signal: deadline.signal,
          url: finalUrl,
        });
        return {
          url: finalUrl,
          status: response.status,
          contentType,
          body: decodeBody(body.bytes, contentType),
          bytes: body.bytes.byteLength,
          truncated: body.truncated,
          redirects,
        };
      } catch (error) {
        throw toFetchError(error, { url: target, deadline, timeoutMs, outer: init.signal });
      } finally {
        deadline.dispose();
      }
    },
    close: async () => {
      if (client) await (await client).agent.destroy();
    },
  };
}
