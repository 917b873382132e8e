// An MCP server over stdio with one tool, `environment`, that answers with the names and
// values of its own environment as JSON: what XZatoma let through to a server it started.
// `node env-server.ts` (Node runs the TypeScript directly).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "xzatoma-env", version: "1.0.0" });
server.registerTool(
  "environment",
  { description: "The server's own environment variables, as JSON.", inputSchema: {} },
  () => ({ content: [{ type: "text" as const, text: JSON.stringify(process.env) }] }),
);
await server.connect(new StdioServerTransport());
