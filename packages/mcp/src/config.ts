// `@xzatoma/mcp/config`: the zod schemas of the `mcp` section and of one server entry, kept out
// of the main entry so that connecting servers from a configuration already read loads no zod
// for them.
export {
  mcpConfigSchema,
  mcpServerConfigSchema,
  MCP_CONNECT_MODES,
  MCP_SERVER_NAME,
  MCP_TOOL_SEARCH_MODES,
  transportOf,
  type McpConfig,
  type McpServerConfig,
  type McpToolSearchConfig,
  type McpTransportKind,
} from "./mcp-config.js";
