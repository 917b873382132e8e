/**
 * The `xzepr` section of XZatoma's configuration file: where XZepr's REST API is, whether the
 * watcher reports its results there, and the receiver it reports them under. It lives with the
 * runtime's configuration schema, not in `@xzatoma/xzepr`, so validating a configuration file
 * installs no Kafka or CloudEvents client (docs/explanation/watcher-wiring.md). Nothing here
 * reads a file or an environment variable: `@xzatoma/xzepr`'s `resolveXzeprClientOptions`
 * turns the resolved section and the environment into client options.
 */
import { isHttpUrlWithoutCredentials } from "@xzatoma/core";
import { z } from "zod";

// Messages start with "expected", so a front end can add "got <value>".
const text = () =>
  z.string({ error: "expected a string" }).trim().min(1, "expected a non-empty string");
const flag = () => z.boolean({ error: "expected true or false" });

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
 * The API token comes from the environment only (`XZEPR_API_TOKEN`). Unknown keys are
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
