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
export { createAuditSink } from "./audit-sink.js";
export {
  DEFAULT_PROJECT_INSTRUCTIONS_MAX_BYTES,
  loadProjectInstructions,
  type ProjectInstructions,
  type ProjectInstructionsOptions,
} from "./project-instructions.js";
export type { SessionModes } from "./session-modes.js";
export { createSystemPrompt } from "./system-prompt.js";
export {
  conversationTitle,
  createAgentRuntime,
  type AgentRuntime,
  type AgentRuntimeOptions,
  type RuntimeRunOptions,
  type RuntimeStatus,
} from "./agent-runtime.js";
export { openRuntimeHistory } from "./open-history.js";
export type { RuntimeIO } from "./runtime-io.js";
export { resolveRuntimeConfig, type ResolveRuntimeConfigOptions } from "./resolve-config.js";
export {
  ConfigError,
  defaultConfigPath,
  ECOSYSTEM_ENV_MAPPINGS,
  ENV_MAPPINGS,
  ENV_PREFIX,
  environmentVariableOf,
  formatConfig,
  formatConfigJson,
  formatConfigProblem,
  loadConfig,
  NON_KEY_VARIABLES,
  resolveUserPath,
  SELECTED_MODEL_KEY,
  validateConfigFile,
  type ConfigProblem,
  type ConfigSource,
  type ConfigValidation,
  type EnvMapping,
  type FlagMapping,
  type FormatConfigOptions,
  type LoadConfigOptions,
  type LoadedConfig,
  type ReadTextFile,
  type ValueKind,
} from "./config-loader/index.js";
