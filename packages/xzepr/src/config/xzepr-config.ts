/**
 * The `xzepr` slice of XZatoma's configuration: where XZepr's REST API is, whether the
 * watcher reports its results there, and the receiver it reports them under. The apps compose
 * this slice with the others; this package reads no file and no environment variable itself.
 */
import { z } from "zod";
import type { XzeprClientOptions } from "../rest/xzepr-client.js";

/**
 * The environment variable holding the XZepr API token. The token is a credential, so it is
 * never read from a configuration file (the slice has no key for it): a front end passes the
 * environment to {@link resolveXzeprClientOptions}.
 */
export const XZEPR_API_TOKEN_ENV = "XZEPR_API_TOKEN";

// Messages start with "expected", so a front end can add "got <value>".
const text = () =>
  z.string({ error: "expected a string" }).trim().min(1, "expected a non-empty string");
const flag = () => z.boolean({ error: "expected true or false" });

function isHttpUrlWithoutCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === "http:" || url.protocol === "https:") &&
      url.username === "" &&
      url.password === ""
    );
  } catch {
    return false;
  }
}

const httpUrl = () =>
  z
    .string({ error: "expected an http or https URL" })
    .refine(
      isHttpUrlWithoutCredentials,
      "expected an http or https URL without a user name or password",
    );

/** `xzepr.receiver`: the XZepr receiver the watcher's results are posted to. */
export const xzeprReceiverConfigSchema = z.strictObject({
  name: text().default("xzatoma-watcher"),
  type: text().default("xzatoma.watcher.result"),
  version: text().default("1.0.0"),
});

/**
 * `xzepr`:
 * - `api_url`: XZepr's REST API, e.g. `http://127.0.0.1:8042` (http or https, no user name
 *   or password in it). Unset: XZatoma calls no XZepr API.
 * - `report_results` (default `false`): after each plan run, post the result to XZepr as an
 *   event of the receiver below (found by name and type, created when missing). Needs `api_url`.
 * - `receiver.name` / `.type` / `.version` (defaults `xzatoma-watcher`,
 *   `xzatoma.watcher.result`, `1.0.0`).
 *
 * The API token comes from the environment only ({@link XZEPR_API_TOKEN_ENV}). Unknown keys are
 * refused, a `token` key included.
 *
 * @example
 * xzepr:
 *   api_url: http://127.0.0.1:8042
 *   report_results: true
 */
export const xzeprConfigSchema = z
  .strictObject({
    api_url: httpUrl().optional(),
    report_results: flag().default(false),
    receiver: xzeprReceiverConfigSchema.prefault({}),
  })
  .superRefine((config, context) => {
    if (config.report_results && config.api_url === undefined) {
      context.addIssue({
        code: "custom",
        path: ["report_results"],
        message: "report_results needs xzepr.api_url: set the URL of XZepr's API, or turn it off",
        params: { explained: true },
      });
    }
  });

/** The `xzepr` slice as a front end writes it. */
export type XzeprConfigInput = z.input<typeof xzeprConfigSchema>;
/** The `xzepr` slice, defaults applied. */
export type XzeprConfig = z.output<typeof xzeprConfigSchema>;

/**
 * The options for `createXzeprClient` from the resolved slice and the environment, or
 * `undefined` when no `api_url` is configured. The token is taken from `XZEPR_API_TOKEN`
 * (an empty value counts as none).
 *
 * @example
 * const options = resolveXzeprClientOptions(config.xzepr, process.env);
 * const xzepr = options && createXzeprClient(options);
 */
export function resolveXzeprClientOptions(
  config: Pick<XzeprConfig, "api_url">,
  env: Readonly<Record<string, string | undefined>>,
): XzeprClientOptions | undefined {
  if (config.api_url === undefined) return undefined;
  const token = env[XZEPR_API_TOKEN_ENV];
  return {
    baseUrl: config.api_url,
    ...(token === undefined || token.trim() === "" ? {} : { token: token.trim() }),
  };
}
