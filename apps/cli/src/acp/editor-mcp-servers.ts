import type { McpServer } from "@agentclientprotocol/sdk";
import { MCP_SERVER_NAME, type McpServerConfig } from "@xzatoma/runtime";
import { mcpServerConfigSchema } from "@xzatoma/runtime/config";

/** The MCP servers an editor sent, as configuration entries, and the ones left out and why. */
export interface EditorMcpServers {
  readonly servers: Readonly<Record<string, McpServerConfig>>;
  /** One sentence per server left out, naming it. */
  readonly refused: readonly string[];
}

/** A server name XZatoma accepts (`<server>__<tool>` tool names) made from the editor's label. */
function serverName(label: string): string {
  const name = label
    .trim()
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 64);
  return name;
}

/**
 * The servers of ACP's `session/new` (or `session/load`) `mcpServers` as `mcp.servers`
 * entries, validated by the same schema as configured ones: a stdio server's `command`,
 * `args` and `env`, a streamable HTTP server's `url` and `headers`. The editor cannot set
 * what only the configuration may (`trusted`, `trusted_tools`, `cwd`): every tool call of
 * these servers needs a person's yes, and each starts where configured servers start. An SSE
 * server (XZatoma speaks stdio and streamable HTTP), an entry the schema refuses, or a name
 * given twice is left out with a reason.
 */
export function editorMcpServers(sent: readonly McpServer[] | undefined): EditorMcpServers {
  const servers: Record<string, McpServerConfig> = {};
  const refused: string[] = [];
  for (const server of sent ?? []) {
    const label = typeof server.name === "string" ? server.name : "";
    const name = serverName(label);
    const what = `the editor's MCP server '${label}'`;
    if (!MCP_SERVER_NAME.test(name)) {
      refused.push(`${what} was left out: its name has no letter or digit to name its tools by`);
      continue;
    }
    if (Object.hasOwn(servers, name)) {
      refused.push(`${what} was left out: another server the editor sent is also named '${name}'`);
      continue;
    }
    let entry: Record<string, unknown>;
    if ("type" in server && server.type === "sse") {
      refused.push(
        `${what} was left out: it speaks SSE, and XZatoma connects to stdio and streamable HTTP servers`,
      );
      continue;
    } else if ("type" in server && server.type === "http") {
      entry = {
        type: "http",
        url: server.url,
        headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])),
      };
    } else if ("command" in server) {
      entry = {
        command: server.command,
        args: server.args,
        env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])),
      };
    } else {
      refused.push(`${what} was left out: it is neither a stdio nor an HTTP server`);
      continue;
    }
    const parsed = mcpServerConfigSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.join(".") ?? "";
      refused.push(
        `${what} was left out: ${where ? `${where}: ` : ""}${issue?.message ?? "not a valid server"}`,
      );
      continue;
    }
    servers[name] = parsed.data;
  }
  return { servers, refused };
}
