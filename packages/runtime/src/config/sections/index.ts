/**
 * `@xzatoma/runtime/sections`: the `watcher` and `xzepr` sections of the configuration file,
 * alone. The runtime's configuration schema composes them, so a file with those sections
 * means the same to every front end; the watcher service reads them. A separate entry, so a
 * front end that only validates its configuration does not load them through the main one.
 */
export {
  KAFKA_SASL_MECHANISMS,
  KAFKA_SECURITY_PROTOCOLS,
  RESULT_MODES,
  WATCHER_TYPES,
  watcherConfigSchema,
  watcherTopics,
  type WatcherConfig,
  type WatcherTopics,
  type WatcherType,
} from "./watcher-config.js";
export {
  xzeprConfigSchema,
  xzeprReceiverConfigSchema,
  type XzeprConfig,
  type XzeprConfigInput,
} from "./xzepr-config.js";
