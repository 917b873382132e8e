import { createMcpManager, type McpManager, type McpServerConfig } from "@xzatoma/mcp";
import { createCredentialStore } from "@xzatoma/providers";
import type { WorkspaceContext } from "@xzatoma/tools";
import type { RuntimeConfig } from "../config/config-values.js";
import { createMcpSecretStore } from "../mcp/mcp-secret-store.js";
import { mcpServerEnvironment } from "../mcp/mcp-server-environment.js";
import { mcpWorkingDirectory } from "../mcp/mcp-working-directory.js";
import type { RuntimeIO } from "../runtime-io.js";

/** The MCP servers of one session, by name, and which of them a client added. */
export interface SessionMcpServers {
  readonly servers: Readonly<Record<string, McpServerConfig>>;
  /** The names of the client's servers: their entries are taken literally (no `${NAME}`). */
  readonly literal: readonly string[];
}

/**
 * The configured servers and those a client added for this session: a configured name wins
 * over a client's server of the same name.
 *
 * @example
 * mcpServersOf({ git: configured }, { git: fromEditor, docs: fromEditor2 });
 * // { servers: { docs: fromEditor2, git: configured }, literal: ["docs"] }
 */
export function mcpServersOf(
  configured: Readonly<Record<string, McpServerConfig>>,
  client: Readonly<Record<string, McpServerConfig>> = {},
): SessionMcpServers {
  const clientServers = Object.fromEntries(
    Object.entries(client).filter(([name]) => !Object.hasOwn(configured, name)),
  );
  return { servers: { ...clientServers, ...configured }, literal: Object.keys(clientServers) };
}

/**
 * The MCP manager of a runtime, or undefined when no server is configured or added. Nothing
 * connects here: servers connect when the first run starts (the model needs their tools in
 * its first request), or at start for `connect: start`. Their tools get names other than
 * `reservedNames`.
 */
export function buildRuntimeMcp(
  config: RuntimeConfig,
  io: RuntimeIO,
  context: {
    readonly env: NodeJS.ProcessEnv;
    readonly workspace: WorkspaceContext;
    readonly clientServers: Readonly<Record<string, McpServerConfig>> | undefined;
    readonly reservedNames: readonly string[];
  },
): McpManager | undefined {
  const { servers, literal } = mcpServersOf(config.mcp.servers, context.clientServers);
  if (Object.keys(servers).length === 0) return undefined;
  const { env, workspace } = context;
  const warn = (message: string) => io.warn(message);
  return createMcpManager({
    config: { ...config.mcp, servers },
    literalServers: literal,
    // Never the workspace: a server's launcher would run files the model wrote there.
    cwd: mcpWorkingDirectory(config.persistence.data_dir),
    workspace: workspace.root,
    env,
    // Proxies and CA bundles as the user's shell has them; never a secret.
    serverEnv: mcpServerEnvironment(env),
    warn,
    oauth: {
      store: createMcpSecretStore(createCredentialStore({ env }), warn),
      // Only where a person is there to open the URL (chat, an editor); `run` and the
      // watcher use a sign-in stored before, or fail saying how to sign in.
      ...(io.ask
        ? {
            authorize: (server: string, url: URL) =>
              io.warn(
                `The MCP server '${server}' needs a sign-in: open ${url.href} in a browser (XZatoma waits up to 5 minutes).`,
              ),
          }
        : {}),
    },
    reservedNames: context.reservedNames,
    // What a server returns may be a secret: a later fetch to a host the user has not
    // allowed then needs a person's yes, as after a command that needed one.
    exposure: workspace.exposure,
  });
}
