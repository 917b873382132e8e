import { XzatomaError } from "@xzatoma/errors";

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
export class UrlBlockedError extends XzatomaError<{
  readonly url: string;
  readonly refusal: UrlRefusal;
  readonly reason: string;
}> {
  declare readonly code: "URL_BLOCKED";
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
    super("URL_BLOCKED", `Refused to fetch ${url}: ${reason}`, {
      fields: { url, refusal, reason },
    });
  }
}
