// The configuration loader every front end shares: the file (with YAML positions), the
// `XZATOMA_*` and ecosystem environment variables, the front end's own flags, one strict
// schema, and problems worded with where each value came from.
export {
  ConfigError,
  formatConfigProblem,
  type ConfigProblem,
  type ConfigSource,
} from "./config-error.js";
export type { ReadTextFile } from "./config-file.js";
export { defaultConfigPath, resolveUserPath } from "./config-paths.js";
export {
  ECOSYSTEM_ENV_MAPPINGS,
  ENV_MAPPINGS,
  ENV_PREFIX,
  environmentVariableOf,
  NON_KEY_VARIABLES,
  type EnvMapping,
} from "./env-mapping.js";
export { formatConfig, formatConfigJson, type FormatConfigOptions } from "./format-config.js";
export {
  loadConfig,
  validateConfigFile,
  type ConfigValidation,
  type FlagMapping,
  type LoadConfigOptions,
  type LoadedConfig,
} from "./load-config.js";
export {
  findProjectConfig,
  PROJECT_CONFIG_FILE,
  PROJECT_KEYS_NEVER,
  PROJECT_KEYS_WITHOUT_TRUST,
  readProjectConfig,
  type ProjectConfig,
} from "./project-config.js";
export { SELECTED_MODEL_KEY, type ValueKind } from "./value-kinds.js";
