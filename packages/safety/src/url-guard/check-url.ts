/**
 * The static half of the URL guard: everything that can be judged from the parsed URL
 * alone (scheme, credentials, port, IP-literal hosts, localhost names). Host names are
 * judged again at connect time, on the addresses they resolve to.
 */
import { isIP } from "node:net";
import {
  createAllowance,
  normaliseHost,
  type Allowance,
  type UrlGuardOptions,
} from "./allowance.js";
import type { UrlRefusal } from "./url-blocked-error.js";

/** `allow` fetches, `confirm` asks a person first, `block` never connects. */
export type UrlVerdict = "allow" | "confirm" | "block";

/** The guard's judgement of one URL. */
export interface UrlDecision {
  readonly verdict: UrlVerdict;
  /** Why, in one sentence the model or a person can act on. */
  readonly reason: string;
  /** The URL as parsed and normalised (WHATWG serialisation, fragment dropped). */
  readonly url?: string;
  /** For `block` and `confirm`: the kind of refusal. */
  readonly refusal?: UrlRefusal;
  /** The host is one of the user's allowed hosts (configuration, never the model). */
  readonly trustedHost?: boolean;
}

const MAX_URL_LENGTH = 8192;

function block(reason: string, refusal: UrlRefusal, url?: string): UrlDecision {
  return { verdict: "block", reason, refusal, ...(url === undefined ? {} : { url }) };
}

function isLocalhostName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

/** The port a parsed http(s) URL connects to. */
export function effectivePort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/** {@link checkUrl} with an already compiled allowance. */
export function checkUrlWith(input: string, allowance: Allowance): UrlDecision {
  if (input.length > MAX_URL_LENGTH) {
    return block(`the URL is longer than ${MAX_URL_LENGTH} characters`, "invalid-url");
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return block("it is not a valid absolute URL", "invalid-url");
  }
  url.hash = "";
  const href = url.href;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return block(`the scheme '${url.protocol}' is not allowed; use http or https`, "scheme", href);
  }
  if (url.username !== "" || url.password !== "") {
    return block("URLs with credentials (user:password@) are not allowed", "credentials", href);
  }
  const host = normaliseHost(url.hostname);
  if (host === "") return block("the URL has no host", "invalid-url", href);
  const port = effectivePort(url);
  if (port === 0) return block("port 0 is not a real destination", "port", href);
  const ownHost = allowance.isAllowedHost(host, port);

  if (isIP(host) !== 0) {
    const denied = allowance.deniedAddress(host, host, port);
    if (denied !== undefined) return block(`${host} is ${denied}`, "address", href);
  } else if (isLocalhostName(host) && !ownHost) {
    return block(`${host} is a loopback name`, "host", href);
  }

  if (!ownHost && !allowance.isPlainPort(port)) {
    return {
      verdict: "confirm",
      reason: `port ${port} is not 80 or 443; a person should confirm this request`,
      url: href,
      refusal: "port",
    };
  }
  const reason = ownHost
    ? `${host}:${port} is one of the user's allowed hosts`
    : isIP(host) !== 0
      ? `${host} is a public address`
      : `${host} is a host name; its addresses are checked when connecting`;
  return { verdict: "allow", reason, url: href, ...(ownHost ? { trustedHost: true } : {}) };
}

/**
 * Judges a URL before anything connects: http and https only, no credentials, ports 80
 * and 443 unless configured (others `confirm`, port 0 `block`), and IP-literal hosts
 * against the address policy. Only the WHATWG-parsed URL is judged, never the raw string,
 * so IDNA, short and hex/octal IPv4 forms, odd slashes and `\@` tricks are judged as what
 * they connect to. Host names come out `allow` here: their addresses are checked at
 * connect time by {@link createGuardedFetch}.
 *
 * @example
 * checkUrl("http://0x7f000001/").verdict; // "block"
 * checkUrl("http://example.com:22/").verdict; // "confirm"
 */
export function checkUrl(input: string, options?: UrlGuardOptions): UrlDecision {
  return checkUrlWith(input, createAllowance(options));
}

/**
 * Judges an `@url` mention from a prompt with the same validator as the fetch tool. A
 * mention pulls external text into the conversation as untrusted data, so one that would
 * be `allow` is `confirm`: a person says yes before it is fetched. The leading `@` is
 * optional.
 */
export function checkMention(mention: string, options?: UrlGuardOptions): UrlDecision {
  const decision = checkUrl(mention.startsWith("@") ? mention.slice(1) : mention, options);
  if (decision.verdict !== "allow") return decision;
  return {
    ...decision,
    verdict: "confirm",
    reason: `a URL mention brings untrusted external text into the conversation; a person confirms it first (${decision.reason})`,
  };
}
