/**
 * The zod-free parts of the `mcp` section: names, modes, the renaming of pasted entries and
 * the rule every server entry follows. The section's zod schema (`mcp-config.ts`, exported from
 * `@xzatoma/mcp/config`) uses these very functions, and so does the configuration read at
 * start-up, which loads no zod.
 */
import type { ConfigRuleIssue } from "@xzatoma/core";

/** How a server's name may be spelled: it becomes the prefix of its tools' names. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** When a server is connected: at the first run that needs tools (`lazy`) or when the runtime starts. */
export const MCP_CONNECT_MODES = ["lazy", "start"] as const;

/** When the MCP tools are deferred behind tool search: past the budget, always, or never. */
export const MCP_TOOL_SEARCH_MODES = ["auto", "always", "never"] as const;

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

/** A server entry with the names of other agent CLIs renamed to XZatoma's (see above). */
export function renamePastedKeys(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const entry = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(entry).map(([key, item]) => {
      const renamed = PASTED_NAMES[key];
      return [renamed !== undefined && !(renamed in entry) ? renamed : key, item];
    }),
  );
}

/** The `mcp` section with `mcpServers` (the key other agent CLIs use) read as `servers`. */
export function acceptMcpServersKey(value: unknown): unknown {
  if (typeof value !== "object" || value === null || !("mcpServers" in value)) return value;
  const { mcpServers, ...rest } = value as Record<string, unknown>;
  return "servers" in rest ? value : { ...rest, servers: mcpServers };
}

/** A server entry is a stdio server (`command`) or an HTTP server (`url`), and its `type` agrees. */
export function oneTransportPerServer(entry: {
  readonly type?: string | undefined;
  readonly command?: string | undefined;
  readonly url?: string | undefined;
}): readonly ConfigRuleIssue[] {
  if (entry.command !== undefined && entry.url !== undefined) {
    return [{ message: "set either command (stdio) or url (HTTP), not both" }];
  }
  if (entry.command === undefined && entry.url === undefined) {
    return [{ message: "set command (a stdio server) or url (a streamable HTTP server)" }];
  }
  if (entry.type === "stdio" && entry.command === undefined) {
    return [{ message: "type stdio needs a command" }];
  }
  if (entry.type !== undefined && entry.type !== "stdio" && entry.url === undefined) {
    return [{ message: `type ${entry.type} needs a url` }];
  }
  return [];
}

/** `stdio` or `http`: how XZatoma talks to the server. */
export type McpTransportKind = "stdio" | "http";

/** The transport a configured server uses. */
export function transportOf(server: { readonly command?: string | undefined }): McpTransportKind {
  return server.command !== undefined ? "stdio" : "http";
}
