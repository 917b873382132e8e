/**
 * `@xzatoma/xzepr/config`: what turns the `xzepr` configuration section and the environment
 * into XZepr client options. The section's schema (`xzeprConfigSchema`) is
 * `@xzatoma/runtime/sections`', so validating a configuration file installs no Kafka or
 * CloudEvents client (see CHANGELOG.md).
 */
export {
  resolveXzeprClientOptions,
  XZEPR_API_TOKEN_ENV,
  type XzeprApiSettings,
} from "./config/xzepr-client-options.js";
