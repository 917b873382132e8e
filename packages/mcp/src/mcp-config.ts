import {
  expecting,
  flag,
  httpUrl,
  oneOf,
  positiveInteger,
  text,
  textList,
  timerSeconds,
} from "@xzatoma/core";
import { z } from "zod";

/** How a server's name may be spelled: it becomes the prefix of its tools' names. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** When a server is connected: at the first run that needs tools (`lazy`) or when the runtime starts. */
export const MCP_CONNECT_MODES = ["lazy", "start"] as const;

const stringMap = (what: string) =>
  expecting(z.record(z.string(), z.string()), `a mapping of ${what} to strings`);

/**
 * The keys other agent CLIs write in their `mcpServers` entries (Gemini CLI's camelCase
 * names), renamed to XZatoma's, so a pasted entry works as it is. `type` is accepted for
 * Claude Code's and Cursor's entries (`stdio`, `http`).
 */
const PASTED_NAMES: Readonly<Record<string, string>> = {
  httpUrl: "url",
  trust: "trusted",
  includeTools: "include_tools",
  excludeTools: "exclude_tools",
};

function renamePastedKeys(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const entry = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(entry).map(([key, item]) => {
      const renamed = PASTED_NAMES[key];
      return [renamed !== undefined && !(renamed in entry) ? renamed : key, item];
    }),
  );
}

const serverEntry = z
  .strictObject({
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
  })
  .superRefine((entry, context) => {
    if (entry.command !== undefined && entry.url !== undefined) {
      context.addIssue({
        code: "custom",
        message: "set either command (stdio) or url (HTTP), not both",
      });
    } else if (entry.command === undefined && entry.url === undefined) {
      context.addIssue({
        code: "custom",
        message: "set command (a stdio server) or url (a streamable HTTP server)",
      });
    } else if (entry.type === "stdio" && entry.command === undefined) {
      context.addIssue({ code: "custom", message: "type stdio needs a command" });
    } else if (entry.type !== undefined && entry.type !== "stdio" && entry.url === undefined) {
      context.addIssue({ code: "custom", message: `type ${entry.type} needs a url` });
    }
  });

/** When the MCP tools are deferred behind tool search: past the budget, always, or never. */
export const MCP_TOOL_SEARCH_MODES = ["auto", "always", "never"] as const;

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
export const mcpConfigSchema = z.preprocess((value) => {
  if (typeof value !== "object" || value === null || !("mcpServers" in value)) return value;
  const { mcpServers, ...rest } = value as Record<string, unknown>;
  return "servers" in rest ? value : { ...rest, servers: mcpServers };
}, mcpSection);

/** One server as configured, after defaults. */
export type McpServerConfig = z.output<typeof serverEntry>;
/** The `mcp` section after defaults. */
export type McpConfig = z.output<typeof mcpSection>;
/** `mcp.tool_search` after defaults. */
export type McpToolSearchConfig = z.output<typeof toolSearchSection>;

/** `stdio` or `http`: how XZatoma talks to the server. */
export type McpTransportKind = "stdio" | "http";

/** The transport a configured server uses. */
export function transportOf(server: McpServerConfig): McpTransportKind {
  return server.command !== undefined ? "stdio" : "http";
}
