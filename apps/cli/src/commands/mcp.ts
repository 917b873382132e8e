import { createCredentialStore } from "@xzatoma/providers";
import {
  createMcpManager,
  createMcpSecretStore,
  mcpServerEnvironment,
  mcpWorkingDirectory,
  type McpServerReport,
} from "@xzatoma/runtime";
import type { CommandOptionSource } from "../config/flag-mapping.js";
import { mcpServerLines } from "../chat/mcp-view.js";
import { ExitCode } from "../exit-codes.js";
import { toTerminalSafe, toTerminalSafeJson } from "../render/terminal-safe.js";
import { loadUserConfig } from "./load-user-config.js";

/**
 * `xzatoma mcp list`: starts every enabled server of `mcp.servers`, lists its state and its
 * tools as the model sees them, and stops it. A server that asks for OAuth is signed in to
 * (the URL is shown on stderr). Exit code 1 when a server failed.
 */
export async function mcpList(
  options: { config?: string; json?: boolean },
  command: CommandOptionSource,
): Promise<number> {
  const { config } = await loadUserConfig(options, command);
  const warn = (message: string): void => {
    process.stderr.write(`xzatoma: ${toTerminalSafe(message)}\n`);
  };
  const manager = createMcpManager({
    config: config.mcp,
    // As in a session: never the directory the command runs in, whose files may be anyone's.
    cwd: mcpWorkingDirectory(config.persistence.data_dir),
    workspace: process.cwd(),
    // As in a session: proxies and CA bundles as the shell has them, never a secret.
    serverEnv: mcpServerEnvironment(process.env),
    // A server that asks for OAuth is signed in to here; the token goes to the keyring, for
    // chat, run and the watcher to use.
    oauth: {
      store: createMcpSecretStore(createCredentialStore({ warn }), warn),
      authorize: (server, url) =>
        warn(
          `the MCP server '${server}' needs a sign-in: open ${url.href} in a browser (waiting up to 5 minutes)`,
        ),
    },
  });
  let servers: McpServerReport[];
  try {
    await manager.connect();
    servers = manager.servers();
  } finally {
    await manager.close();
  }
  const failed = servers.some((server) => server.state === "failed");
  if (options.json) {
    const json = servers.map((server) => ({
      name: server.name,
      transport: server.transport,
      state: server.state,
      ...(server.error === undefined ? {} : { error: server.error }),
      ...(server.serverInfo ? { server: server.serverInfo } : {}),
      tools: server.toolNames,
    }));
    process.stdout.write(`${toTerminalSafeJson({ servers: json })}\n`);
  } else if (servers.length === 0) {
    process.stdout.write("No MCP servers configured (mcp.servers).\n");
  } else {
    // A server's error carries the tail of its own stderr: escaped, never sent raw.
    process.stdout.write(
      `MCP servers (${servers.length}):\n${mcpServerLines(servers)
        .map((line) => `  ${toTerminalSafe(line)}`)
        .join("\n")}\n`,
    );
  }
  return failed ? ExitCode.failure : ExitCode.ok;
}
