export {
  ConfigError,
  formatConfigProblem,
  type ConfigProblem,
  type ConfigSource,
} from "./config-error.js";
export type { ReadTextFile } from "./config-file.js";
export { defaultConfigPath, resolveUserPath } from "./config-paths.js";
export {
  PROVIDER_TYPES,
  runtimeConfigSchema,
  TERMINAL_MODES,
  type ConfigFileShape,
  type ProviderType,
  type RuntimeConfig,
} from "@xzatoma/runtime";
export { ENV_MAPPINGS, type EnvMapping } from "./env-mapping.js";
export {
  FLAG_MAPPINGS,
  pickExplicitFlags,
  type CommandOptionSource,
  type FlagMapping,
} from "./flag-mapping.js";
export { formatConfig, formatConfigJson, type FormatConfigOptions } from "./format-config.js";
export {
  loadConfig,
  validateConfigFile,
  type ConfigValidation,
  type LoadConfigOptions,
  type LoadedConfig,
} from "./load-config.js";
export { SELECTED_MODEL_KEY, type ValueKind } from "./value-kinds.js";
