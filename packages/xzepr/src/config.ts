/**
 * `@xzatoma/xzepr/config`: the `xzepr` configuration slice alone, so the runtime composes it
 * without loading the CloudEvents and Kafka libraries into every front end.
 */
export {
  resolveXzeprClientOptions,
  XZEPR_API_TOKEN_ENV,
  xzeprConfigSchema,
  xzeprReceiverConfigSchema,
  type XzeprConfig,
  type XzeprConfigInput,
} from "./config/xzepr-config.js";
