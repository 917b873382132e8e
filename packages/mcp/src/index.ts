export {
  acceptMcpServersKey,
  MCP_CONNECT_MODES,
  MCP_SERVER_NAME,
  MCP_TOOL_SEARCH_MODES,
  oneTransportPerServer,
  renamePastedKeys,
  transportOf,
  type McpTransportKind,
} from "./mcp-server-entry.js";
// The section's zod schemas are in `@xzatoma/mcp/config`.
export type { McpConfig, McpServerConfig, McpToolSearchConfig } from "./mcp-config.js";
export {
  createMcpConnection,
  type McpConnection,
  type McpConnectionOptions,
  type McpResourceContents,
  type McpServerState,
  type McpServerStatus,
  type McpToolInfo,
} from "./mcp-connection.js";
export {
  createMcpManager,
  type McpConnectScope,
  type McpManager,
  type McpManagerOptions,
  type McpResourceText,
  type McpServerReport,
} from "./mcp-manager.js";
export {
  createMcpTools,
  isToolIncluded,
  modelInputSchema,
  mcpToolInputSchema,
  MAX_INPUT_SCHEMA_CHARS,
  type McpToolsContext,
} from "./mcp-tools.js";
export {
  prepareSignIn,
  signInKey,
  type McpOAuthOptions,
  type McpSecretStore,
  type ServerSignIn,
} from "./oauth-sign-in.js";
export { mapCallResult, type McpCallResult, type McpContentBlock } from "./result-mapping.js";
export { mcpToolName, uniqueToolName, MAX_TOOL_NAME_LENGTH } from "./tool-names.js";
