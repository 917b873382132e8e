// An editor for the ACP tests and the benchmark: spawns the built `xzatoma agent` and talks
// to it through the ACP SDK's client side, as Zed does.
import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import {
  client,
  ndJsonStream,
  type ClientCapabilities,
  type ClientConnection,
  type ReadTextFileRequest,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type WriteTextFileRequest,
} from "@agentclientprotocol/sdk";
import { BIN } from "../cli.test-support.js";

/** What the test editor answers and records. */
export interface TestEditor {
  readonly connection: ClientConnection;
  readonly child: ChildProcess;
  /** Every session/update received, in order. */
  readonly updates: SessionNotification[];
  /** Every permission request received. */
  readonly permissions: RequestPermissionRequest[];
  readonly reads: ReadTextFileRequest[];
  readonly writes: WriteTextFileRequest[];
  /** Every line the agent wrote to standard output, parsed. */
  readonly lines: unknown[];
  stderr(): string;
  /** Resolves on the first update that `match` accepts (already received or to come). */
  waitForUpdate(match: (update: SessionNotification) => boolean): Promise<SessionNotification>;
  /** Ends standard input and waits for the agent to exit. */
  stop(): Promise<number | null>;
}

/** Options of {@link startEditor}. */
export interface StartEditorOptions {
  readonly cwd: string;
  readonly env: Record<string, string>;
  /** Options after `agent` (`--max-turns 2`). */
  readonly args?: readonly string[];
  /** The answer to each permission request; default: allow once. */
  readonly permission?: (
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
  /** The editor's buffers by absolute path; a read of another path fails. */
  readonly buffers?: Map<string, string>;
  /** Answers fs/read_text_file in place of `buffers` (an editor that never answers, say). */
  readonly read?: (request: ReadTextFileRequest) => Promise<{ content: string }>;
}

/** Spawns `xzatoma agent` and connects to it as an editor. */
export function startEditor(options: StartEditorOptions): TestEditor {
  const child = spawn(process.execPath, [BIN, "agent", ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: unknown[] = [];
  let pending = "";
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString();
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    for (const line of parts) if (line.trim() !== "") lines.push(JSON.parse(line));
  });
  const updates: SessionNotification[] = [];
  const waiters: {
    match: (update: SessionNotification) => boolean;
    resolve: (update: SessionNotification) => void;
  }[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const reads: ReadTextFileRequest[] = [];
  const writes: WriteTextFileRequest[] = [];
  const buffers = options.buffers ?? new Map<string, string>();
  const app = client({ name: "test-editor" })
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
      for (const waiter of [...waiters]) {
        if (waiter.match(params)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(params);
        }
      }
    })
    .onRequest("session/request_permission", ({ params, signal }) => {
      permissions.push(params);
      return options.permission
        ? options.permission(params, signal)
        : { outcome: { outcome: "selected", optionId: params.options[0]?.optionId ?? "none" } };
    })
    .onRequest("fs/read_text_file", ({ params }) => {
      reads.push(params);
      if (options.read) return options.read(params);
      const text = buffers.get(params.path);
      if (text === undefined) throw new Error(`no buffer for ${params.path}`);
      return { content: text };
    })
    .onRequest("fs/write_text_file", ({ params }) => {
      writes.push(params);
      buffers.set(params.path, params.content);
      return {};
    });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return {
    connection,
    child,
    updates,
    permissions,
    reads,
    writes,
    lines,
    stderr: () => stderr,
    waitForUpdate(match) {
      const found = updates.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    async stop() {
      child.stdin.end();
      return exited;
    },
  };
}

/** `initialize` as an editor sends it. */
export function initialize(editor: TestEditor, capabilities: ClientCapabilities = {}) {
  return editor.connection.agent.request("initialize", {
    protocolVersion: 1,
    clientCapabilities: capabilities,
    clientInfo: { name: "test-editor", version: "1.0.0" },
  });
}

/** The text of the agent's message chunks of a session, in order. */
export function agentText(editor: TestEditor, sessionId: string): string {
  return editor.updates
    .filter((note) => note.sessionId === sessionId)
    .map((note) =>
      note.update.sessionUpdate === "agent_message_chunk" && note.update.content.type === "text"
        ? note.update.content.text
        : "",
    )
    .join("");
}
