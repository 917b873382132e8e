/**
 * `@xzatoma/watcher/config`: the watcher's configuration slice alone, so the runtime can
 * compose it into the configuration schema without loading the watcher (and its Kafka and
 * CloudEvents libraries) into every front end.
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
} from "@xzatoma/runtime/sections";
