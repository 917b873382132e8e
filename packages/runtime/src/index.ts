export {
  executionModeOf,
  PATH_KEYS,
  PROVIDER_TYPES,
  runtimeConfigSchema,
  TERMINAL_MODES,
  type ConfigFileShape,
  type ProviderType,
  type RuntimeConfig,
} from "./config/config-schema.js";
