import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import path from "node:path";
import {
  agent,
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type AgentContext,
  type ClientCapabilities,
  type McpServer,
} from "@agentclientprotocol/sdk";
import { isXzatomaError } from "@xzatoma/core";
import {
  conversationTitle,
  createAgentRuntime,
  type AgentRuntime,
  type RuntimeConfig,
  type SessionModes,
} from "@xzatoma/runtime";
import type { ChatMode } from "@xzatoma/safety";
import type { FileAccess } from "@xzatoma/tools";
import { version } from "../version.js";
import { createAcpSession, isChatMode, modeState, type AcpSession } from "./acp-session.js";
import { availableCommands } from "./available-commands.js";
import { editorMcpServers } from "./editor-mcp-servers.js";
import { replayUpdates } from "./replay.js";
import type { SessionStore } from "./session-store.js";

/** Options of {@link createAcpAgent}. */
export interface AcpAgentOptions {
  readonly config: RuntimeConfig;
  /** The config file in use (tools may never write it). */
  readonly configPath?: string;
  /** The modes each new session starts in. */
  readonly modes: (config: RuntimeConfig) => SessionModes;
  readonly store: SessionStore;
  /** Every notice goes here (standard error): standard output carries only the protocol. */
  readonly warn: (message: string) => void;
}

/** The `cwd` of a session request: an absolute path of an existing directory, or a clear error. */
function workspaceOf(cwd: unknown, method: string): string {
  if (typeof cwd !== "string" || cwd === "")
    throw RequestError.invalidParams({ cwd }, `${method}: cwd is missing; give the workspace`);
  if (!path.isAbsolute(cwd))
    throw RequestError.invalidParams(
      { cwd },
      `${method}: cwd '${cwd}' is relative; give the workspace as an absolute path`,
    );
  let isDirectory = false;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory)
    throw RequestError.invalidParams({ cwd }, `${method}: cwd '${cwd}' is not a directory`);
  return cwd;
}

/** Reads and writes of the file tools through the editor, for one session. */
function editorFiles(client: AgentContext, sessionId: string): FileAccess {
  return {
    async readTextFile(absolutePath) {
      const response = await client.request("fs/read_text_file", {
        sessionId,
        path: absolutePath,
      });
      return response.content;
    },
    async writeTextFile(absolutePath, content) {
      await client.request("fs/write_text_file", { sessionId, path: absolutePath, content });
    },
  };
}

/**
 * The ACP agent of `xzatoma agent`: each session is a runtime from `createAgentRuntime`
 * rooted at the editor's `cwd`, its confirmations asked through
 * `session/request_permission`, its events streamed as `session/update`.
 */
export function createAcpAgent(options: AcpAgentOptions): {
  readonly app: AgentApp;
  close(): Promise<void>;
} {
  const sessions = new Map<string, AcpSession>();
  let capabilities: ClientCapabilities = {};

  async function open(
    sessionId: string,
    cwd: string,
    client: AgentContext,
    resume: string | undefined,
    /** The editor's MCP servers for the session, and the mode a loaded session was in. */
    given: { readonly mcpServers?: readonly McpServer[]; readonly mode?: ChatMode } = {},
  ): Promise<AcpSession> {
    const editor = editorMcpServers(given.mcpServers);
    for (const reason of editor.refused) options.warn(reason);
    const usesEditorFiles =
      capabilities.fs?.readTextFile === true && capabilities.fs.writeTextFile === true;
    // Set once the runtime exists: its `ask` goes to the session.
    const late: { session?: AcpSession } = {};
    let runtime: AgentRuntime;
    try {
      runtime = await createAgentRuntime(
        options.config,
        {
          warn: options.warn,
          // Every confirmation goes to the editor; before the session exists nothing is asked.
          ask: (request) =>
            late.session
              ? late.session.ask(request)
              : Promise.resolve({ approved: false, reason: "The session is not ready." }),
        },
        {
          workspace: cwd,
          modes: {
            ...options.modes(options.config),
            ...(given.mode !== undefined ? { chatMode: given.mode } : {}),
          },
          // Under the configured servers' rules; each of their tool calls asks the editor.
          clientMcpServers: editor.servers,
          // An editor session asks a person, as chat does: delegation is offered in it too.
          subagents: true,
          ...(options.configPath ? { configPath: options.configPath } : {}),
          history: {
            title: conversationTitle,
            ...(resume !== undefined ? { resume } : {}),
          },
          ...(usesEditorFiles ? { fileAccess: editorFiles(client, sessionId) } : {}),
        },
      );
    } catch (error) {
      if (isXzatomaError(error) && error.code === "CONVERSATION_NOT_FOUND")
        throw RequestError.sessionNotFound(sessionId);
      if (isXzatomaError(error))
        throw RequestError.internalError({ code: error.code }, error.message);
      throw error;
    }
    const session = createAcpSession({
      sessionId,
      runtime,
      client,
      warn: options.warn,
      editorReads: usesEditorFiles,
    });
    late.session = session;
    sessions.set(sessionId, session);
    // The custom commands and skills, once the editor knows the session (after the answer).
    const offered = availableCommands(runtime);
    if (offered.length > 0) {
      setImmediate(() => {
        void session.send({
          sessionUpdate: "available_commands_update",
          availableCommands: offered,
        });
      });
    }
    return session;
  }

  const sessionOf = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  };

  const app = agent({ name: "xzatoma" })
    .onRequest("initialize", ({ params }) => {
      capabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          mcpCapabilities: { http: true, sse: false },
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
        },
        authMethods: [],
        agentInfo: { name: "xzatoma", title: "XZatoma", version },
      };
    })
    .onRequest("authenticate", () => ({}))
    .onRequest("session/new", async ({ params, client }) => {
      const cwd = workspaceOf(params.cwd, "session/new");
      const sessionId = randomUUID();
      const session = await open(sessionId, cwd, client, undefined, {
        mcpServers: params.mcpServers,
      });
      await options.store.set(sessionId, { cwd, mode: session.runtime.modes.chatMode });
      return { sessionId, modes: modeState(session.runtime.modes.chatMode) };
    })
    .onRequest("session/load", async ({ params, client }) => {
      const cwd = workspaceOf(params.cwd, "session/load");
      let session = sessions.get(params.sessionId);
      if (!session) {
        const stored = await options.store.get(params.sessionId);
        // A session of an earlier process continues its conversation; an id that is no
        // session but a stored conversation's (`xzatoma history list`) continues that one.
        const resume = stored ? stored.conversationId : params.sessionId;
        // The mode it was left in, as a session of this process keeps it.
        const mode =
          stored?.mode !== undefined && isChatMode(stored.mode) ? stored.mode : undefined;
        session = await open(params.sessionId, cwd, client, resume, {
          mcpServers: params.mcpServers,
          ...(mode !== undefined ? { mode } : {}),
        });
      }
      for (const update of replayUpdates(session.runtime.messages, session.runtime.workspace.root))
        void session.send(update);
      await session.send({
        sessionUpdate: "current_mode_update",
        currentModeId: session.runtime.modes.chatMode,
      });
      return { modes: modeState(session.runtime.modes.chatMode) };
    })
    .onRequest("session/set_mode", async ({ params }) => {
      const session = sessionOf(params.sessionId);
      if (!isChatMode(params.modeId))
        throw RequestError.invalidParams(
          { modeId: params.modeId },
          `session/set_mode: unknown mode '${params.modeId}'; the modes are planning and write`,
        );
      session.runtime.setMode(params.modeId);
      // Kept for a session/load by a later process.
      const stored = await options.store.get(params.sessionId);
      await options.store.set(params.sessionId, {
        ...stored,
        cwd: session.runtime.workspace.root,
        mode: params.modeId,
      });
      return {};
    })
    .onRequest("session/prompt", async ({ params }) => {
      const session = sessionOf(params.sessionId);
      const stopReason = await session.prompt(params.prompt);
      const conversationId = session.runtime.conversationId;
      if (conversationId !== undefined)
        await options.store.set(params.sessionId, {
          cwd: session.runtime.workspace.root,
          conversationId,
          mode: session.runtime.modes.chatMode,
        });
      return { stopReason };
    })
    .onNotification("session/cancel", ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  return {
    app,
    async close() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(all.map((session) => session.close()));
    },
  };
}
