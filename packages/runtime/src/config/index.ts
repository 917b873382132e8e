export {
  approvalPolicyOf,
  executionModeOf,
  PATH_KEYS,
  PROVIDER_TYPES,
  runtimeConfigSchema,
  TERMINAL_MODES,
  type ConfigFileShape,
  type ProviderType,
  type RuntimeConfig,
} from "./config-schema.js";
export {
  CHAT_MODES,
  chatConfigSchema,
  mentionsConfigSchema,
  SAFETY_MODES,
  type ChatConfig,
  type MentionsConfig,
} from "./front-end-schemas.js";
export {
  quotaConfigSchema,
  subagentConfigSchema,
  type QuotaConfig,
  type SubagentConfig,
} from "../subagents/subagent-config.js";
