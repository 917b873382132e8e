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
