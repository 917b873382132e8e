/**
 * Marker shared by every XZatoma error class across packages and duplicated installs;
 * `isXzatomaError` in `@xzatoma/core` recognises it (see `path-guard-error.ts`).
 */
const XZATOMA_ERROR = Symbol.for("xzatoma.error");

/**
 * Why the URL guard refused a URL or stopped a request:
 * - `invalid-url`, `scheme`, `credentials`, `port`, `host`, `address`: the target itself;
 * - `needs-confirmation`: a `confirm` URL fetched without a person's yes;
 * - `redirect`, `too-many-redirects`: a redirect hop;
 * - `too-large`, `timeout`, `malformed-response`: the response, which was stopped.
 */
export type UrlRefusal =
  | "invalid-url"
  | "scheme"
  | "credentials"
  | "port"
  | "host"
  | "address"
  | "needs-confirmation"
  | "redirect"
  | "too-many-redirects"
  | "too-large"
  | "timeout"
  | "malformed-response";

/**
 * The URL guard refused to connect, or stopped a response it had started to read. The
 * message is written for the model: it names the URL and says why.
 */
export class UrlBlockedError extends Error {
  readonly [XZATOMA_ERROR] = true;
  readonly code = "URL_BLOCKED";
  override readonly name = "UrlBlockedError";

  /**
   * @param reason Why, as one clause ("127.0.0.1 is a loopback address").
   * @param url The URL refused (normalised when it parsed).
   * @param refusal The kind of refusal.
   */
  constructor(
    readonly reason: string,
    readonly url: string,
    readonly refusal: UrlRefusal,
  ) {
    super(`Refused to fetch ${url}: ${reason}`);
  }
}
