import type { Tool } from "@xzatoma/core";
import { describeError } from "@xzatoma/errors";
import type { McpConfig, McpServerConfig } from "./mcp-config.js";
import { createMcpConnection, type McpConnection, type McpServerStatus } from "./mcp-connection.js";
import { createMcpTools } from "./mcp-tools.js";

/** Options of {@link createMcpManager}. */
export interface McpManagerOptions {
  /** The resolved `mcp` section. */
  readonly config: McpConfig;
  /** The working directory of stdio servers without their own `cwd` (the workspace). */
  readonly cwd: string;
  /** Where `${NAME}` in a server's `env`, `args` and `headers` is looked up. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Told once when a server fails to connect or ends; the other servers keep working. */
  readonly warn?: (message: string) => void;
  /** Tool names already in use (the built-in tools): MCP tools get other names. */
  readonly reservedNames?: Iterable<string>;
}

/** A server's state and the registry names of its tools. */
export interface McpServerReport extends McpServerStatus {
  /** The names the model sees (`<server>__<tool>`), after include/exclude. */
  readonly toolNames: readonly string[];
}

/** Which servers a {@link McpManager.connect} call connects. */
export type McpConnectScope = "all" | "start";

/** The configured MCP servers of one runtime. */
export interface McpManager {
  /** Whether any server is enabled. */
  readonly enabled: boolean;
  /**
   * Connects the enabled servers of `scope` (`start`: those with `connect: start`) that were
   * not tried yet, all at once, each within `mcp.connect_timeout_seconds`. A server that fails
   * is reported through `warn` once and left out; it is not tried again by later calls.
   * Returns the tools of every server connected so far.
   */
  connect(scope?: McpConnectScope): Promise<Tool[]>;
  /** The tools of every server connected so far. */
  tools(): Tool[];
  servers(): McpServerReport[];
  /** Ends every connection (stdio servers are stopped). */
  close(): Promise<void>;
}

interface Entry {
  readonly connection: McpConnection;
  readonly config: McpServerConfig;
  attempt?: Promise<void>;
  tools: Tool[];
}

/**
 * Builds the manager of the configured servers. Nothing is started and the MCP SDK is not
 * loaded until {@link McpManager.connect}.
 *
 * @example
 * const mcp = createMcpManager({ config: config.mcp, cwd: workspace, warn: io.warn });
 * for (const tool of await mcp.connect()) registry.register(tool);
 * await mcp.close();
 */
export function createMcpManager(options: McpManagerOptions): McpManager {
  const env = options.env ?? process.env;
  const connectTimeoutMs = options.config.connect_timeout_seconds * 1000;
  const taken = new Set(options.reservedNames ?? []);
  const entries: Entry[] = Object.entries(options.config.servers).map(([name, config]) => ({
    config,
    tools: [],
    connection: createMcpConnection({
      name,
      config,
      cwd: options.cwd,
      env,
      onLost: (message) =>
        options.warn?.(
          `MCP server '${name}' stopped: ${message}. Its tools fail until it starts again at their next call.`,
        ),
    }),
  }));

  function attempt(entry: Entry): Promise<void> {
    entry.attempt ??= entry.connection.connect(connectTimeoutMs).then(
      () => {
        entry.tools = createMcpTools(
          { connection: entry.connection, config: entry.config, connectTimeoutMs, taken },
          entry.connection.status().tools,
        );
      },
      (error: unknown) => {
        options.warn?.(
          `MCP server '${entry.connection.name}' (mcp.servers.${entry.connection.name}) could not be started and is left out: ${describeError(error)}`,
        );
      },
    );
    return entry.attempt;
  }

  const allTools = () => entries.flatMap((entry) => entry.tools);

  return {
    enabled: entries.some((entry) => entry.config.enabled),
    async connect(scope = "all") {
      await Promise.all(
        entries
          .filter(
            (entry) =>
              entry.config.enabled && (scope === "all" || entry.config.connect === "start"),
          )
          .map(attempt),
      );
      return allTools();
    },
    tools: allTools,
    servers: () =>
      entries.map((entry) => ({
        ...entry.connection.status(),
        toolNames: entry.tools.map((tool) => tool.name),
      })),
    async close() {
      await Promise.all(entries.map((entry) => entry.connection.close()));
    },
  };
}
