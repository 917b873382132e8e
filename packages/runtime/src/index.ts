export {
  approvalPolicyOf,
  executionModeOf,
  TERMINAL_MODES,
  type RuntimeConfig,
} from "./config/config-values.js";
// The configuration's zod schemas are in `@xzatoma/runtime/config`.
export type { ConfigFileShape } from "./config/config-schema.js";
export { PROVIDER_TYPES, type ProviderType } from "@xzatoma/providers";
export type { ProjectInstructions, ProjectInstructionsOptions } from "./project-instructions.js";
export type { SessionModes } from "./session-modes.js";
export {
  conversationTitle,
  createAgentRuntime,
  type AgentRuntime,
  type AgentRuntimeOptions,
  type RuntimeRunOptions,
  type RuntimeStatus,
} from "./agent-runtime.js";
export type { RuntimeListener, SubscribeOptions, Unsubscribe } from "./runtime-events.js";
export type { ChildInfo } from "./subagents/subagent-tools.js";
export { openRuntimeHistory } from "./open-history.js";
export {
  prepareRuntimeTemplate,
  type RuntimeTemplate,
  type RuntimeTemplateOptions,
} from "./runtime-template.js";
/**
 * The one redactor (`@xzatoma/redaction`), for front ends that record or send what a runtime
 * produced (telemetry exporters, logs) without depending on the safety package themselves.
 */
export { redactSecrets } from "@xzatoma/redaction";
export { createMcpSecretStore } from "./mcp/mcp-secret-store.js";
export { mcpWorkingDirectory } from "./mcp/mcp-working-directory.js";
export { mcpServerEnvironment } from "./mcp/mcp-server-environment.js";
export {
  createToolSearch,
  searchTools,
  TOOL_SEARCH_NAME,
  type ToolCosts,
  type ToolSearch,
} from "./mcp/tool-search.js";
export { KEPT_TOOL_RESULTS } from "./context-budget.js";
export {
  createMcpManager,
  MCP_SERVER_NAME,
  type McpManager,
  type McpServerConfig,
  type McpServerReport,
  type McpServerState,
} from "@xzatoma/mcp";
export type { RuntimeIO } from "./runtime-io.js";
export { BWRAP_VARIABLE, bwrapPathOf } from "./sandbox-binary.js";
export { resolveRuntimeConfig, type ResolveRuntimeConfigOptions } from "./resolve-config.js";
export {
  ConfigError,
  defaultConfigPath,
  ENV_MAPPINGS,
  environmentVariableOf,
  formatConfig,
  formatConfigJson,
  loadConfig,
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
export {
  findProjectConfig,
  PROJECT_CONFIG_FILE,
  PROJECT_KEYS_NEVER,
  PROJECT_KEYS_WITHOUT_TRUST,
  readProjectConfig,
  type ProjectConfig,
} from "./config-loader/index.js";
export {
  activateSkill,
  commandRoots,
  createSkillTool,
  discoverSkills,
  loadSessionSkills,
  mentionedSkills,
  openTrustStore,
  parseSkillFile,
  projectDirectories,
  skillCatalog,
  skillRoots,
  SKILL_CATALOG_MAX_BYTES,
  SKILL_FILE_MAX_BYTES,
  SKILL_TOOL_NAME,
  TRUST_FILE,
  type SessionSkills,
  type Skill,
  type SkillDiscovery,
  type SkillProblem,
  type SkillRoot,
  type SkillScope,
  type TrustStore,
  type TrustSubject,
} from "./skills/index.js";
export {
  COMMAND_FILE_MAX_BYTES,
  discoverCommands,
  expandCommand,
  parseCommandFile,
  parseInvocation,
  splitArguments,
  type CommandDiscovery,
  type CustomCommand,
} from "./custom-commands/index.js";
export {
  createHookRunner,
  createSessionHooks,
  HOOK_EVENTS,
  parseHookOutput,
  runHook,
  withHooks,
  type HookCommand,
  type HookContext,
  type HookEventName,
  type HookOutcome,
  type HookOutput,
  type HookRunner,
  type HooksConfig,
  type HookVerdict,
  type SessionHooks,
} from "./hooks/index.js";
