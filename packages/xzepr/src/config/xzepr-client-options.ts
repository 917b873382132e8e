/**
 * From the `xzepr` configuration section (its schema is `@xzatoma/runtime/sections`'
 * `xzeprConfigSchema`) and the environment to the options of `createXzeprClient`. This
 * package reads no file and no environment variable itself: a front end passes both in.
 */
import type { XzeprClientOptions } from "../rest/xzepr-client.js";

/**
 * The environment variable holding the XZepr API token. The token is a credential, so it is
 * never read from a configuration file (the section has no key for it): a front end passes the
 * environment to {@link resolveXzeprClientOptions}.
 */
export const XZEPR_API_TOKEN_ENV = "XZEPR_API_TOKEN";

/** What {@link resolveXzeprClientOptions} reads of the resolved `xzepr` section. */
export interface XzeprApiSettings {
  /** `xzepr.api_url`: XZepr's REST API; unset, XZatoma calls no XZepr API. */
  readonly api_url?: string | undefined;
}

/**
 * The options for `createXzeprClient` from the resolved section and the environment, or
 * `undefined` when no `api_url` is configured. The token is taken from `XZEPR_API_TOKEN`
 * (an empty value counts as none).
 *
 * @example
 * const options = resolveXzeprClientOptions(config.xzepr, process.env);
 * const xzepr = options && createXzeprClient(options);
 */
export function resolveXzeprClientOptions(
  config: XzeprApiSettings,
  env: Readonly<Record<string, string | undefined>>,
): XzeprClientOptions | undefined {
  if (config.api_url === undefined) return undefined;
  const token = env[XZEPR_API_TOKEN_ENV];
  return {
    baseUrl: config.api_url,
    ...(token === undefined || token.trim() === "" ? {} : { token: token.trim() }),
  };
}
