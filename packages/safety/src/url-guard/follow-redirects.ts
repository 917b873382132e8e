/**
 * Redirects, followed by hand: every hop is judged by the full static check before its
 * connection (whose addresses the connector checks in turn), and the hops are counted.
 */
import type { Dispatcher, fetch as undiciFetch, Response } from "undici";
import type { Allowance } from "./allowance.js";
import { checkUrlWith } from "./check-url.js";
import { UrlBlockedError } from "./url-blocked-error.js";

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const ACCEPT = "text/html, application/xhtml+xml, text/plain, application/json, */*;q=0.5";

/** How to follow. */
export interface FollowOptions {
  readonly dispatcher: Dispatcher;
  /** undici's fetch (loaded with the dispatcher). */
  readonly fetch: typeof undiciFetch;
  readonly allowance: Allowance;
  readonly maxRedirects: number;
  /** A person confirmed the first URL: `confirm` hops on its origin are followed too. */
  readonly confirmed: boolean;
  readonly signal: AbortSignal;
  readonly userAgent: string;
}

/** The final response, its URL, and the URLs redirected to. */
export interface Followed {
  readonly response: Response;
  readonly url: string;
  readonly redirects: readonly string[];
}

function hopTarget(location: string, current: string): string {
  return URL.canParse(location, current) ? new URL(location, current).href : location;
}

/**
 * GETs `url` (already checked) and follows up to `maxRedirects` redirects. A hop must be
 * `allow`, or `confirm` on the confirmed origin; anything else throws UrlBlockedError.
 */
export async function followRedirects(url: string, options: FollowOptions): Promise<Followed> {
  const confirmedOrigins = new Set(options.confirmed ? [new URL(url).origin] : []);
  const redirects: string[] = [];
  let current = url;
  for (;;) {
    const response = await options.fetch(current, {
      dispatcher: options.dispatcher,
      redirect: "manual",
      signal: options.signal,
      headers: { "user-agent": options.userAgent, accept: ACCEPT },
    });
    const location = response.headers.get("location");
    if (!REDIRECT_STATUSES.has(response.status) || location === null) {
      return { response, url: current, redirects };
    }
    response.body?.cancel().catch(() => undefined);
    if (redirects.length >= options.maxRedirects) {
      throw new UrlBlockedError(
        `it redirects more than ${options.maxRedirects} times`,
        url,
        "too-many-redirects",
      );
    }
    const hop = checkUrlWith(hopTarget(location, current), options.allowance);
    const approved =
      hop.verdict === "confirm" &&
      hop.url !== undefined &&
      confirmedOrigins.has(new URL(hop.url).origin);
    if (hop.url === undefined || (hop.verdict !== "allow" && !approved)) {
      const target = hop.url ?? location.slice(0, 200);
      throw new UrlBlockedError(
        `it redirects to ${target}, which is refused: ${hop.reason}`,
        url,
        "redirect",
      );
    }
    redirects.push(hop.url);
    current = hop.url;
  }
}
