import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describeError } from "@xzatoma/errors";
import { checkLauncherLocation } from "./launcher-location.js";
import type { McpServerConfig } from "./mcp-config.js";
import { transportOf, type McpTransportKind } from "./mcp-server-entry.js";
import { prepareSignIn, type McpOAuthOptions, type ServerSignIn } from "./oauth-sign-in.js";
import { ServerProcessTransport } from "./server-process.js";
import type { McpCallResult } from "./result-mapping.js";

/** Where a server stands: `idle` until something needs it, `disabled` when `enabled: false`. */
export type McpServerState = "idle" | "connecting" | "connected" | "failed" | "disabled";

/** One tool as the server lists it. */
export interface McpToolInfo {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
}

/** A server's state, for `xzatoma mcp list` and `/mcp`. */
export interface McpServerStatus {
  readonly name: string;
  readonly transport: McpTransportKind;
  readonly state: McpServerState;
  /** Why the last connection failed or ended. */
  readonly error?: string;
  /** The server's own name and version from the handshake. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** Its tools as last listed (before include/exclude). */
  readonly tools: readonly McpToolInfo[];
}

/** Options of {@link createMcpConnection}. */
export interface McpConnectionOptions {
  readonly name: string;
  readonly config: McpServerConfig;
  /** The working directory of stdio servers without a `cwd` (never the workspace). */
  readonly cwd: string;
  /** Where `${NAME}` in `command`, `args`, `env`, `cwd` and `headers` is looked up. */
  readonly env: NodeJS.ProcessEnv;
  /**
   * What a stdio server gets of XZatoma's environment, over the MCP SDK's safe few of this
   * process (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`) and under its own `env`:
   * nothing else reaches it.
   */
  readonly serverEnv?: Readonly<Record<string, string>>;
  /**
   * Take the entry's values as they are: no `${NAME}` is replaced. For servers a client
   * sent (an editor's `session/new`), whose values are concrete and must not be able to
   * read XZatoma's environment through a `${NAME}` of their own.
   */
  readonly literal?: boolean;
  /** The workspace root: a stdio server is never started from it (see `checkLauncherLocation`). */
  readonly workspace?: string;
  /** Told once each time an established connection ends without being closed by XZatoma. */
  readonly onLost?: (message: string) => void;
  /** OAuth sign-in for streamable HTTP servers without an `Authorization` header. */
  readonly oauth?: McpOAuthOptions;
}

/** One configured server and its connection, made again at the next use after it ended. */
export interface McpConnection {
  readonly name: string;
  status(): McpServerStatus;
  /** Connects and lists the tools; a second call while connected does nothing. Throws on failure. */
  connect(timeoutMs: number): Promise<void>;
  /** Calls a tool by its server's name for it, connecting again first if the server went away. */
  callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number; connectTimeoutMs: number },
  ): Promise<McpCallResult>;
  /** Reads a resource by URI (`resources/read`), connecting again first if needed. */
  readResource(
    uri: string,
    options: { signal?: AbortSignal; timeoutMs: number; connectTimeoutMs: number },
  ): Promise<readonly McpResourceContents[]>;
  close(): Promise<void>;
}

/** One item of a `resources/read` result: text, or base64 `blob` data. */
export interface McpResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
}

const CLIENT_INFO = { name: "xzatoma", version: "0.1.0" };

/** The errors of a handshake or tool listing that took longer than `mcp.connect_timeout_seconds`. */
const connectTimeouts = new WeakSet<Error>();

/** The MCP SDK's safe default environment of a stdio server, from this process. */
async function defaultServerEnv(): Promise<Record<string, string>> {
  const { getDefaultEnvironment } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  return getDefaultEnvironment();
}

/** `${NAME}` replaced by NAME's value in `env` (empty when unset). */
function expandVariables(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? "");
}

/** An HTTP 401 anywhere in the chain of causes. */
function isUnauthorized(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as { code?: unknown }).code === 401 || current.name === "UnauthorizedError")
      return true;
  }
  return false;
}

/** Rejects after `ms` with a message naming what took too long; `onTimeout` cleans up. */
function deadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const late = new Error(`${what} took longer than ${ms / 1000} s`);
      connectTimeouts.add(late);
      reject(late);
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A connection to one configured MCP server. Nothing starts until {@link McpConnection.connect}
 * (the MCP SDK itself is loaded then, so configuring servers costs no start-up time).
 */
export function createMcpConnection(options: McpConnectionOptions): McpConnection {
  const { name, config } = options;
  const transport = transportOf(config);
  const expand = options.literal ? (value: string) => value : expandVariables;
  const expandAll = (values: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv) =>
    Object.fromEntries(Object.entries(values).map(([key, value]) => [key, expand(value, env)]));
  let state: McpServerState = config.enabled ? "idle" : "disabled";
  let error: string | undefined;
  let serverInfo: McpServerStatus["serverInfo"];
  let tools: McpToolInfo[] = [];
  let client: Client | undefined;
  let connecting: Promise<void> | undefined;
  /** The running stdio server's transport: its standard error and how it ended. */
  let serverProcess: ServerProcessTransport | undefined;
  let closing = false;

  const withStderr = (message: string) => {
    const tail = serverProcess?.stderrTail() ?? [];
    return tail.length === 0
      ? message
      : `${message}; the last lines of its standard error: ${tail.join(" | ")}`;
  };

  /**
   * Why a stdio server could not be connected to, in words: a command that is not there, a
   * server that exited (its status, the last lines of its standard error), one that did not
   * finish the handshake in time.
   */
  const diagnose = (cause: unknown, timeoutMs: number): string => {
    if (transport !== "stdio") return describeError(cause);
    const code = (cause as { code?: unknown }).code;
    if (code === "ENOENT" || code === "EACCES") return describeError(cause);
    const exit = serverProcess?.exit;
    if (exit) {
      const how =
        exit.signal !== null
          ? `was ended by the signal ${exit.signal}`
          : `exited with status ${String(exit.code)}`;
      const tail = serverProcess?.stderrTail() ?? [];
      return tail.length === 0
        ? `the server ${how} before the MCP handshake finished, and wrote nothing to its standard error`
        : `the server ${how} before the MCP handshake finished; the last lines of its standard error: ${tail.join(" | ")}`;
    }
    if (cause instanceof Error && connectTimeouts.has(cause)) {
      const tail = serverProcess?.stderrTail() ?? [];
      const said =
        tail.length === 0
          ? "it wrote nothing to its standard error"
          : `the last lines of its standard error: ${tail.join(" | ")}`;
      return `the server started but did not finish the MCP handshake within ${timeoutMs / 1000} s (mcp.connect_timeout_seconds; a launcher such as npx may still be downloading, or cannot reach the network); ${said}`;
    }
    return withStderr(describeError(cause));
  };

  /**
   * Connects; a streamable HTTP server that answers with an OAuth challenge is signed in to
   * (the person opens the URL `oauth.authorize` shows; the code comes back to a listener on
   * 127.0.0.1) and connected to again. Tokens and the client registration stay in the store.
   */
  async function open(timeoutMs: number): Promise<void> {
    // Without a challenge no OAuth happens: the keyring is read only for servers that ask.
    try {
      await openOnce(timeoutMs, undefined);
      return;
    } catch (cause) {
      if (transport !== "http" || !options.oauth || hasAuthorization() || !isUnauthorized(cause))
        throw cause;
    }
    const oauth = options.oauth;
    const signIn = await prepareSignIn(name, oauth);
    try {
      let first: Transport | undefined;
      try {
        await openOnce(timeoutMs, signIn, (made) => (first = made));
      } catch (cause) {
        if (!signIn.authorizationUrl()) throw cause;
        if (!oauth.authorize) {
          throw new Error(
            "the server needs a sign-in (OAuth), and nobody here can open its sign-in page; sign in once where a person can, and the token is kept in the keyring",
            { cause },
          );
        }
        const code = await signIn.waitForCode(oauth.signInTimeoutMs ?? 300_000);
        await (first as unknown as { finishAuth(code: string): Promise<void> }).finishAuth(code);
        await openOnce(timeoutMs, signIn);
      }
    } finally {
      await signIn.close();
    }
  }

  function hasAuthorization(): boolean {
    return Object.keys(config.headers).some((header) => header.toLowerCase() === "authorization");
  }

  async function openOnce(
    timeoutMs: number,
    signIn: ServerSignIn | undefined,
    madeTransport?: (made: Transport) => void,
  ): Promise<void> {
    const [{ Client: ClientClass }, made] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      makeTransport(signIn),
    ]);
    madeTransport?.(made);
    const next = new ClientClass(CLIENT_INFO, { capabilities: {} });
    let established = false;
    next.onclose = () => {
      if (client !== next) return;
      client = undefined;
      if (closing || !established) return;
      state = "failed";
      error = withStderr("the server closed the connection");
      options.onLost?.(error);
    };
    const handshake = async () => {
      await next.connect(made, { timeout: timeoutMs });
      const listed: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await next.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
        for (const tool of page.tools) {
          listed.push({
            name: tool.name,
            ...(tool.description === undefined ? {} : { description: tool.description }),
            inputSchema: tool.inputSchema as Record<string, unknown>,
          });
        }
        cursor = page.nextCursor;
      } while (cursor);
      return listed;
    };
    client = next;
    try {
      tools = await deadline(handshake(), timeoutMs, `connecting to MCP server '${name}'`);
    } catch (cause) {
      client = undefined;
      // Said before the close, which ends a server still running.
      const why = diagnose(cause, timeoutMs);
      await next.close().catch(() => undefined);
      throw new Error(why, { cause });
    }
    established = true;
    const info = next.getServerVersion();
    serverInfo = info ? { name: info.name, version: info.version } : undefined;
  }

  async function makeTransport(signIn?: ServerSignIn): Promise<Transport> {
    if (transport === "stdio") {
      const command = expand(config.command ?? "", options.env);
      // What the runtime lets through (never XZatoma's secrets), then the server's own `env`.
      const environment: Record<string, string> = {
        ...(await defaultServerEnv()),
        ...options.serverEnv,
        ...expandAll(config.env, options.env),
      };
      const cwd = config.cwd === undefined ? options.cwd : expand(config.cwd, options.env);
      const args = config.args.map((arg) => expand(arg, options.env));
      if (options.workspace !== undefined)
        checkLauncherLocation({
          server: name,
          command,
          args,
          cwd,
          searchPath: environment["PATH"],
          workspace: options.workspace,
        });
      serverProcess = new ServerProcessTransport(
        { command, args, env: environment, cwd },
        await import("@modelcontextprotocol/sdk/shared/stdio.js"),
      );
      return serverProcess;
    }
    const { StreamableHTTPClientTransport } =
      await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    return new StreamableHTTPClientTransport(new URL(config.url ?? ""), {
      requestInit: { headers: expandAll(config.headers, options.env) },
      ...(signIn ? { authProvider: signIn.provider } : {}),
    });
  }

  async function connect(timeoutMs: number): Promise<void> {
    if (state === "disabled") throw new Error(`MCP server '${name}' is disabled (enabled: false).`);
    if (client && state === "connected") return;
    connecting ??= (async () => {
      state = "connecting";
      closing = false;
      try {
        await open(timeoutMs);
        state = "connected";
        error = undefined;
      } catch (cause) {
        state = "failed";
        error = describeError(cause);
        throw cause;
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  }

  return {
    name,
    status: () => ({
      name,
      transport,
      state,
      ...(error === undefined ? {} : { error }),
      ...(serverInfo ? { serverInfo } : {}),
      tools,
    }),
    connect,
    async callTool(tool, args, call) {
      if (!client) await connect(call.connectTimeoutMs);
      const active = client;
      if (!active) throw new Error(`MCP server '${name}' is not connected.`);
      try {
        return (await active.callTool({ name: tool, arguments: args }, undefined, {
          signal: call.signal,
          // The registry stops the call at the configured timeout; the SDK's own is a backstop.
          timeout: call.timeoutMs + 1000,
        })) as McpCallResult;
      } catch (cause) {
        if (call.signal.aborted) throw cause;
        if (client !== active) {
          throw new Error(
            `${withStderr(`the MCP server '${name}' ended during the call`)}; it is started again at the next call`,
            { cause },
          );
        }
        throw cause;
      }
    },
    async readResource(uri, call) {
      if (!client) await connect(call.connectTimeoutMs);
      const active = client;
      if (!active) throw new Error(`MCP server '${name}' is not connected.`);
      const result = await active.readResource(
        { uri },
        { timeout: call.timeoutMs, ...(call.signal ? { signal: call.signal } : {}) },
      );
      return result.contents as readonly McpResourceContents[];
    },
    async close() {
      closing = true;
      const active = client;
      client = undefined;
      if (state !== "disabled") state = "idle";
      await active?.close().catch(() => undefined);
    },
  };
}
