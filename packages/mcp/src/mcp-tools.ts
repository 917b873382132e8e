import { defineTool, type Tool } from "@xzatoma/core";
import { z } from "zod";
import type { McpServerConfig } from "./mcp-config.js";
import type { McpConnection, McpToolInfo } from "./mcp-connection.js";
import { mapCallResult } from "./result-mapping.js";
import { mcpToolName, uniqueToolName } from "./tool-names.js";

/** What {@link createMcpTools} needs of the manager. */
export interface McpToolsContext {
  readonly connection: McpConnection;
  readonly config: McpServerConfig;
  readonly connectTimeoutMs: number;
  /** Names already taken (built-in tools, other servers' tools); the new names are added. */
  readonly taken: Set<string>;
}

/** JSON Schema keys that would make zod's converter treat the schema as something else. */
const DROPPED_KEYS = new Set(["$schema", "$id", "id"]);

/**
 * The input schema of an MCP tool: any JSON object (the server checks its own arguments),
 * carrying the server's JSON Schema as zod metadata so that the registry's conversion sends
 * the model exactly that schema.
 */
export function passThroughSchema(
  jsonSchema: Record<string, unknown>,
): z.ZodType<Record<string, unknown>> {
  const kept = Object.fromEntries(
    Object.entries(jsonSchema).filter(([key]) => !DROPPED_KEYS.has(key)),
  );
  return z.looseObject({}).meta({ type: "object", properties: {}, ...kept });
}

/** Whether a server's tool is offered, by `include_tools` and `exclude_tools`. */
export function isToolIncluded(config: McpServerConfig, tool: string): boolean {
  if (config.include_tools.length > 0 && !config.include_tools.includes(tool)) return false;
  return !config.exclude_tools.includes(tool);
}

/**
 * The registry tools of one connected server: named `<server>__<tool>`, described by the
 * server, with its JSON Schema. They are `write` tools that ask before each call (planning
 * mode does not offer them; restricted autonomous mode refuses them) unless the server is
 * `trusted` or the tool is in `trusted_tools`, and they stop at the server's `timeout_seconds`.
 */
export function createMcpTools(context: McpToolsContext, listed: readonly McpToolInfo[]): Tool[] {
  const { connection, config } = context;
  const server = connection.name;
  const timeoutMs = config.timeout_seconds * 1000;
  return listed
    .filter((info) => isToolIncluded(config, info.name))
    .map((info) => {
      const name = uniqueToolName(mcpToolName(server, info.name), context.taken);
      const trusted = config.trusted || config.trusted_tools.includes(info.name);
      const description = (info.description ?? "").trim();
      return defineTool({
        name,
        description: `${description || `The tool '${info.name}'`} (from the MCP server '${server}')`,
        inputSchema: passThroughSchema(info.inputSchema),
        access: "write",
        timeoutMs,
        assess: (input) => ({
          verdict: trusted ? "allow" : "confirm",
          reason: trusted
            ? `${server}/${info.name} is trusted in the configuration (mcp.servers.${server})`
            : `${server}/${info.name} is a tool of the MCP server '${server}', and what it does is up to that server`,
          summary: `MCP ${server}/${info.name} ${JSON.stringify(input).slice(0, 400)}`,
        }),
        async execute(input, toolContext) {
          const result = await connection.callTool(info.name, input, {
            signal: toolContext.signal,
            timeoutMs,
            connectTimeoutMs: context.connectTimeoutMs,
          });
          return mapCallResult(result, name);
        },
      });
    });
}
