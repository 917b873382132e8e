import {
  expecting,
  flag,
  httpUrl,
  oneOf,
  positiveInteger,
  text,
  textList,
  timerSeconds,
  withRule,
} from "@xzatoma/core/config";
import { z } from "zod";
import {
  acceptMcpServersKey,
  MCP_CONNECT_MODES,
  MCP_SERVER_NAME,
  MCP_TOOL_SEARCH_MODES,
  oneTransportPerServer,
  renamePastedKeys,
} from "./mcp-server-entry.js";

export {
  MCP_CONNECT_MODES,
  MCP_SERVER_NAME,
  MCP_TOOL_SEARCH_MODES,
  transportOf,
  type McpTransportKind,
} from "./mcp-server-entry.js";

const stringMap = (what: string) =>
  expecting(z.record(z.string(), z.string()), `a mapping of ${what} to strings`);

const serverEntry = withRule(
  z.strictObject({
    /** `stdio` (a `command`) or `http` (streamable HTTP at `url`); inferred when absent. */
    type: oneOf(["stdio", "http", "streamable-http"]).optional(),
    /** The program to start (stdio). */
    command: text().optional(),
    args: textList().default([]),
    /** Variables added to the server's environment; `${NAME}` takes NAME from XZatoma's. */
    env: stringMap("variable names").default({}),
    /** The server's working directory; default the workspace. */
    cwd: text().optional(),
    /** The streamable HTTP endpoint. */
    url: httpUrl().optional(),
    /** HTTP headers sent with every request; `${NAME}` takes NAME from the environment. */
    headers: stringMap("header names").default({}),
    enabled: flag().default(true),
    connect: oneOf(MCP_CONNECT_MODES).default("lazy"),
    /** The longest one tool call may take. */
    timeout_seconds: timerSeconds().default(60),
    /** Only these tools of the server (its own names); empty: all. */
    include_tools: textList().default([]),
    /** Never these tools of the server. */
    exclude_tools: textList().default([]),
    /** Every tool of this server runs without asking (and in restricted autonomous mode). */
    trusted: flag().default(false),
    /** Tools of this server (its own names) that run without asking. */
    trusted_tools: textList().default([]),
    /**
     * Sent to the model even when tool search defers the MCP tools: `true` for every tool
     * of this server, or a list of its tools (its own names).
     */
    always_load: expecting(
      z.union([z.boolean(), z.array(text())]),
      "true, false or a list of tool names",
    ).default(false),
  }),
  oneTransportPerServer,
);

const toolSearchSection = z.strictObject({
  /** `auto`: defer when the MCP tools' definitions pass `budget_tokens`; `always`; `never`. */
  mode: oneOf(MCP_TOOL_SEARCH_MODES).default("auto"),
  /** The tokens the MCP tools' definitions may take before they are deferred; default 10% of the model's context window. */
  budget_tokens: positiveInteger().optional(),
});

/** One server of `mcp.servers`. */
export const mcpServerConfigSchema = expecting(
  z.preprocess(renamePastedKeys, serverEntry),
  "a server: { command, args, env } or { url, headers }",
);

const serverMap = expecting(
  z.record(
    z.string().regex(MCP_SERVER_NAME, {
      message:
        "a server name is a letter or digit followed by up to 63 letters, digits, '_', '.' or '-'",
    }),
    mcpServerConfigSchema,
  ),
  "a mapping of server names to servers",
);

const mcpSection = z.strictObject({
  /** The servers by name; each one's tools are named `<name>__<tool>`. */
  servers: serverMap.default({}),
  /** The longest connecting to one server (starting it, the handshake, listing its tools) may take. */
  connect_timeout_seconds: timerSeconds().default(30),
  /** Deferring MCP tools behind a search tool when their definitions would take too much context. */
  tool_search: toolSearchSection.prefault({}),
});

/**
 * `mcp`: the MCP servers whose tools join the agent's. `mcpServers` (the key other agent CLIs
 * use) is accepted in place of `servers`, so a block copied from their settings can be pasted.
 *
 * @example
 * mcp:
 *   servers:
 *     files: { command: npx, args: [-y, "@modelcontextprotocol/server-filesystem", "."] }
 *     docs: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${DOCS_TOKEN}" } }
 */
export const mcpConfigSchema = z.preprocess(acceptMcpServersKey, mcpSection);

/** One server as configured, after defaults. */
export type McpServerConfig = z.output<typeof serverEntry>;
/** The `mcp` section after defaults. */
export type McpConfig = z.output<typeof mcpSection>;
/** `mcp.tool_search` after defaults. */
export type McpToolSearchConfig = z.output<typeof toolSearchSection>;
