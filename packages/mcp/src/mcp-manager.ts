import type { Tool } from "@xzatoma/core";
import { describeError } from "@xzatoma/errors";
import type { McpConfig, McpServerConfig } from "./mcp-config.js";
import {
  createMcpConnection,
  type McpConnection,
  type McpResourceContents,
  type McpServerStatus,
} from "./mcp-connection.js";
import { createMcpTools } from "./mcp-tools.js";
import type { McpOAuthOptions } from "./oauth-sign-in.js";

/** Options of {@link createMcpManager}. */
export interface McpManagerOptions {
  /** The resolved `mcp` section. */
  readonly config: McpConfig;
  /**
   * The working directory of stdio servers without their own `cwd`: a directory the agent's
   * tools cannot write (the runtime uses `<data dir>/mcp`), never the workspace. A server's
   * launcher resolves things against its working directory (`python -m`, npx's local
   * `node_modules/.bin`, a relative script), and the workspace's files are the model's to
   * write, so a server started there would run what the model wrote, as the user and outside
   * the sandbox. A server that needs the project says so: `${WORKSPACE}` in its `args`, `env`
   * or `cwd`.
   */
  readonly cwd: string;
  /** The workspace root, as `${WORKSPACE}` in a server's `command`, `args`, `env`, `cwd` and `headers`. */
  readonly workspace?: string;
  /** Where any other `${NAME}` in a server's entry is looked up. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * What every stdio server gets of XZatoma's environment, over the MCP SDK's few safe
   * variables and under its own `env` (the runtime's `mcpServerEnvironment`: what reaching
   * the network needs, never a secret). Default: only the SDK's few.
   */
  readonly serverEnv?: Readonly<Record<string, string>>;
  /**
   * Servers whose entries are taken literally, with no `${NAME}` replaced: those a client
   * sent for one session (an editor's `session/new`), not the configuration's.
   */
  readonly literalServers?: Iterable<string>;
  /** Told once when a server fails to connect or ends; the other servers keep working. */
  readonly warn?: (message: string) => void;
  /** OAuth sign-in for streamable HTTP servers that ask for it; without it they fail. */
  readonly oauth?: McpOAuthOptions;
  /** Tool names already in use (the built-in tools): MCP tools get other names. */
  readonly reservedNames?: Iterable<string>;
  /**
   * The session's secret exposure: told after every tool call and resource read, whose
   * results are opaque and may hold secrets (see {@link McpToolsContext.exposure}).
   */
  readonly exposure?: { record(what: string): void };
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
  /**
   * Reads a resource of one server (`@mcp:server/uri` mentions), starting the server first
   * when it has not been: its text contents joined, binary contents described. Throws for a
   * server that is not configured, is disabled, or failed to start.
   */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpResourceText>;
  /** Ends every connection (stdio servers are stopped). */
  close(): Promise<void>;
}

/** A resource read for the model: its text and what it was. */
export interface McpResourceText {
  readonly text: string;
  /** The MIME types of its contents, as the server gave them. */
  readonly mimeTypes: readonly string[];
}

interface Entry {
  readonly connection: McpConnection;
  readonly config: McpServerConfig;
  attempt?: Promise<void>;
  /** The first connection succeeded (later ones are made at the next use). */
  connected?: boolean;
  tools: Tool[];
}

function resourceText(contents: readonly McpResourceContents[]): McpResourceText {
  const text = contents
    .map((item) =>
      typeof item.text === "string"
        ? item.text
        : `[${item.uri}: ${item.mimeType ?? "binary"} content, not shown]`,
    )
    .join("\n\n");
  const mimeTypes = [
    ...new Set(contents.flatMap((item) => (item.mimeType ? [item.mimeType] : []))),
  ];
  return { text, mimeTypes };
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
  const env: NodeJS.ProcessEnv = {
    ...(options.env ?? process.env),
    ...(options.workspace === undefined ? {} : { WORKSPACE: options.workspace }),
  };
  const connectTimeoutMs = options.config.connect_timeout_seconds * 1000;
  const taken = new Set(options.reservedNames ?? []);
  const literal = new Set(options.literalServers ?? []);
  const entries: Entry[] = Object.entries(options.config.servers).map(([name, config]) => ({
    config,
    tools: [],
    connection: createMcpConnection({
      name,
      config,
      cwd: options.cwd,
      env,
      ...(options.serverEnv ? { serverEnv: options.serverEnv } : {}),
      ...(literal.has(name) ? { literal: true } : {}),
      ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
      ...(options.oauth ? { oauth: options.oauth } : {}),
      onLost: (message) =>
        options.warn?.(
          `MCP server '${name}' stopped: ${message}. Its tools fail until it starts again at their next call.`,
        ),
    }),
  }));

  function attempt(entry: Entry): Promise<void> {
    entry.attempt ??= entry.connection.connect(connectTimeoutMs).then(
      () => {
        entry.connected = true;
        entry.tools = createMcpTools(
          {
            connection: entry.connection,
            config: entry.config,
            connectTimeoutMs,
            taken,
            ...(options.exposure ? { exposure: options.exposure } : {}),
          },
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
    async readResource(server, uri, signal) {
      const entry = entries.find((candidate) => candidate.connection.name === server);
      if (!entry) {
        const names = entries.map((candidate) => candidate.connection.name).join(", ");
        throw new Error(
          `there is no MCP server '${server}' in mcp.servers (configured: ${names || "none"})`,
        );
      }
      if (!entry.config.enabled)
        throw new Error(`the MCP server '${server}' is disabled (enabled: false)`);
      await attempt(entry);
      if (!entry.connected) {
        throw new Error(
          `the MCP server '${server}' could not be started: ${entry.connection.status().error ?? "unknown reason"}`,
        );
      }
      const contents = await entry.connection.readResource(uri, {
        timeoutMs: entry.config.timeout_seconds * 1000,
        connectTimeoutMs,
        ...(signal ? { signal } : {}),
      });
      options.exposure?.record(`read the MCP resource ${server}/${uri.slice(0, 200)}`);
      return resourceText(contents);
    },
    async close() {
      await Promise.all(entries.map((entry) => entry.connection.close()));
    },
  };
}
