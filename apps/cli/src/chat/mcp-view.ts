import type { McpServerReport } from "@xzatoma/runtime";

/** One server as `mcp list` and `/mcp` show it: `files (stdio): connected, 14 tools`. */
export function describeMcpServer(server: McpServerReport): string {
  const state =
    server.state === "failed"
      ? `failed: ${server.error ?? "no reason given"}`
      : server.state === "idle"
        ? "not started yet (starts with the first message)"
        : server.state;
  const tools = server.state === "connected" ? `, ${server.toolNames.length} tools` : "";
  return `${server.name} (${server.transport}): ${state}${tools}`;
}

/** Servers and their tools as text lines, each tool indented under its server. */
export function mcpServerLines(servers: readonly McpServerReport[]): string[] {
  return servers.flatMap((server) => [
    describeMcpServer(server),
    ...server.toolNames.map((name) => `  ${name}`),
  ]);
}

/** What `/mcp` says: each server, its state and its tools, or that none is configured. */
export function describeMcpServers(servers: readonly McpServerReport[] | undefined): string {
  if (!servers || servers.length === 0)
    return "No MCP servers configured (mcp.servers in the configuration file).";
  return mcpServerLines(servers).join("\n");
}
