// `@xzatoma/runtime/config`: the zod schema of the whole configuration file and of the
// sections the runtime owns. Kept out of the main entry: loading a configuration checks it
// with the reader generated from these schemas (`config-reader.generated.ts`), and zod is
// loaded only when there is a problem to report.
export {
  PROVIDER_TYPES,
  runtimeConfigSchema,
  type ConfigFileShape,
  type ProviderType,
} from "./config-schema.js";
export {
  approvalPolicyOf,
  executionModeOf,
  PATH_KEYS,
  TERMINAL_MODES,
  type RuntimeConfig,
} from "./config-values.js";
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
export { hooksConfigSchema } from "../hooks/hooks-config-schema.js";
export { MCP_SERVER_NAME, mcpServerConfigSchema, type McpServerConfig } from "@xzatoma/mcp/config";
