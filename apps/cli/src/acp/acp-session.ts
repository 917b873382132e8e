import { readFile } from "node:fs/promises";
import {
  RequestError,
  type AgentContext,
  type ContentBlock,
  type SessionModeState,
  type SessionUpdate,
  type StopReason,
} from "@agentclientprotocol/sdk";
import type { AgentEvent, AgentResult, ApprovalDecision, ApprovalRequest } from "@xzatoma/core";
import type { AgentRuntime } from "@xzatoma/runtime";
import type { ChatMode } from "@xzatoma/safety";
import { toolKind, toolLocations, toolTitle } from "./tool-calls.js";

/** XZatoma's chat modes as ACP session modes. */
const MODES = [
  {
    id: "planning",
    name: "Planning",
    description: "Read-only: the agent reads, searches and plans; it changes nothing.",
  },
  {
    id: "write",
    name: "Write",
    description: "Every tool: the agent edits files and runs commands, asking before risky ones.",
  },
] as const;

/** The session modes a session reports, with the current one. */
export function modeState(mode: ChatMode): SessionModeState {
  return { currentModeId: mode, availableModes: MODES.map((entry) => ({ ...entry })) };
}

/** True for a mode id XZatoma knows. */
export function isChatMode(id: string): id is ChatMode {
  return MODES.some((entry) => entry.id === id);
}

const ALLOW = "allow-once";
const REJECT = "reject-once";

/** Options of {@link createAcpSession}. */
export interface AcpSessionOptions {
  readonly sessionId: string;
  /** Builds the runtime; `ask` is the session's permission request to the editor. */
  readonly runtime: AgentRuntime;
  readonly client: AgentContext;
  readonly warn: (message: string) => void;
  /** Reads the editor's buffers (fs/read_text_file) for edit diffs; absent: the disk. */
  readonly editorReads?: boolean;
}

/** The tools whose completed calls show a diff of the file they changed. */
const EDITING_TOOLS = new Set(["write_file", "edit_file"]);
/** Files larger than this get no diff card (the tool's own output still says what changed). */
const MAX_DIFF_BYTES = 1024 * 1024;
/**
 * How long a diff card waits for the editor's text of a file. Updates are sent in order, so
 * an editor that never answered would hold back every later update, every permission
 * request and the end of the turn, cancelled or not.
 */
const DIFF_READ_TIMEOUT_MS = 5000;

/** `work`, or a rejection after `ms`. */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** One ACP session: a runtime, its prompt turn in flight, and its updates to the editor. */
export interface AcpSession {
  readonly runtime: AgentRuntime;
  /** Sends updates in order; resolves when every update so far is written. */
  send(update: SessionUpdate): Promise<void>;
  prompt(blocks: readonly ContentBlock[]): Promise<StopReason>;
  cancel(): void;
  /** `io.ask` of the runtime: a session/request_permission to the editor. */
  ask(request: ApprovalRequest): Promise<ApprovalDecision>;
  close(): Promise<void>;
}

/** The text the model reads for a prompt's content blocks. */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "resource_link":
        parts.push(`[${block.name}](${block.uri})`);
        break;
      case "resource": {
        const resource = block.resource;
        if ("text" in resource)
          parts.push(`\n<context uri="${resource.uri}">\n${resource.text}\n</context>`);
        else parts.push(`[binary resource ${resource.uri} not included]`);
        break;
      }
      default:
        throw RequestError.invalidParams(
          { type: block.type },
          `XZatoma does not accept ${block.type} content in a prompt`,
        );
    }
  }
  return parts.join("\n");
}

/** How a run's end is told to the editor. */
function stopReasonOf(result: AgentResult, cancelled: boolean): StopReason {
  if (cancelled || result.stopReason === "aborted") return "cancelled";
  switch (result.stopReason) {
    case "completed":
      return "end_turn";
    case "length":
      return "max_tokens";
    case "error":
      throw RequestError.internalError(
        { code: result.error?.code },
        result.error?.message ?? "the model failed",
      );
    default:
      // max-turns, timeout, tool budgets, repeated calls, quota: the run's own limits.
      return "max_turn_requests";
  }
}

/** Creates a session around a runtime built for it. */
export function createAcpSession(options: AcpSessionOptions): AcpSession {
  const { sessionId, client, runtime } = options;
  let queue: Promise<void> = Promise.resolve();
  let running: AbortController | undefined;
  let cancelled = false;
  /** The text of each edited file before its call ran, by tool call (undefined: no diff). */
  const before = new Map<string, Promise<{ path: string; text: string | null } | undefined>>();

  /** Sends updates in order; one given as a function is built when its turn comes. */
  const send = (update: SessionUpdate | (() => Promise<SessionUpdate>)): Promise<void> => {
    queue = queue
      .then(async () => {
        const built = typeof update === "function" ? await update() : update;
        await client.notify("session/update", { sessionId, update: built });
      })
      .catch((error: unknown) => options.warn(`could not send a session update: ${String(error)}`));
    return queue;
  };

  /** A file's current text as the editor shows it (its buffer, else the disk), or null. */
  const currentText = async (real: string): Promise<string | null> => {
    try {
      const text = options.editorReads
        ? (
            await within(
              client.request("fs/read_text_file", { sessionId, path: real }),
              DIFF_READ_TIMEOUT_MS,
            )
          ).content
        : await readFile(real, "utf8");
      return Buffer.byteLength(text) > MAX_DIFF_BYTES ? null : text;
    } catch {
      return null;
    }
  };

  /**
   * Remembers the text an editing call is about to replace (only paths the guard accepts).
   * Best effort: the read starts when the model asks for the call, before the call runs,
   * and a read that lost the race to the write shows no change, so no diff is sent.
   */
  const snapshot = async (input: unknown) => {
    const target = (input as { path?: unknown } | null)?.path;
    if (typeof target !== "string") return undefined;
    let real: string;
    try {
      real = await runtime.workspace.pathGuard.resolve(target);
    } catch {
      return undefined;
    }
    return { path: real, text: await currentText(real) };
  };

  const onEvent = (event: AgentEvent) => {
    const root = runtime.workspace.root;
    switch (event.type) {
      case "text-delta":
        if (event.delta !== "")
          void send({
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: event.delta },
          });
        break;
      case "tool-call-requested":
        if (EDITING_TOOLS.has(event.toolName)) before.set(event.toolCallId, snapshot(event.input));
        void send({
          sessionUpdate: "tool_call",
          toolCallId: event.toolCallId,
          title: toolTitle(event.toolName, event.input),
          kind: toolKind(event.toolName),
          status: "pending",
          locations: toolLocations(root, event.input),
          rawInput: event.input,
        });
        break;
      case "approval-answered":
        void send({
          sessionUpdate: "tool_call_update",
          toolCallId: event.toolCallId,
          status: event.approved ? "in_progress" : "failed",
          ...(event.approved || !event.reason
            ? {}
            : {
                content: [
                  { type: "content", content: { type: "text", text: `Refused: ${event.reason}` } },
                ],
              }),
        });
        break;
      case "tool-result": {
        const { result } = event;
        const text = result.success ? result.output : (result.error ?? result.output);
        const previous = before.get(event.toolCallId);
        before.delete(event.toolCallId);
        void send(async () => {
          const old = result.success ? await previous : undefined;
          const now = old ? await currentText(old.path) : null;
          return {
            sessionUpdate: "tool_call_update",
            toolCallId: event.toolCallId,
            status: result.success ? "completed" : "failed",
            content: [
              // What changed, as the editor's diff view shows it, then the tool's own words.
              ...(old && now !== null && now !== old.text
                ? [{ type: "diff" as const, path: old.path, oldText: old.text, newText: now }]
                : []),
              { type: "content", content: { type: "text", text } },
            ],
          };
        });
        break;
      }
      default:
        break;
    }
  };
  // The session owns its runtime, so the subscription lasts as long as both.
  runtime.subscribe(onEvent);

  return {
    runtime,
    send,
    async prompt(blocks) {
      if (running)
        throw RequestError.invalidRequest(
          { sessionId },
          "a prompt is already running in this session; cancel it or wait for it",
        );
      const text = promptText(blocks);
      running = new AbortController();
      cancelled = false;
      try {
        const result = await runtime.run(text, { signal: running.signal });
        await queue;
        return stopReasonOf(result, cancelled);
      } finally {
        running = undefined;
      }
    },
    cancel() {
      if (!running) return;
      cancelled = true;
      running.abort();
    },
    async ask(request) {
      await queue;
      const signal = running?.signal;
      try {
        const response = await client.request(
          "session/request_permission",
          {
            sessionId,
            toolCall: {
              toolCallId: request.toolCallId,
              title: request.summary ?? toolTitle(request.toolName, request.input),
              kind: toolKind(request.toolName),
              status: "pending",
              locations: toolLocations(runtime.workspace.root, request.input),
              rawInput: request.input,
            },
            options: [
              { optionId: ALLOW, name: "Allow once", kind: "allow_once" },
              { optionId: REJECT, name: "Reject", kind: "reject_once" },
            ],
          },
          signal ? { cancellationSignal: signal, stopWaitingOnCancel: true } : undefined,
        );
        if (response.outcome.outcome === "selected" && response.outcome.optionId === ALLOW)
          return { approved: true, reason: "The user allowed it in the editor." };
        if (response.outcome.outcome === "cancelled")
          return { approved: false, reason: "The permission request was cancelled; not run." };
        return { approved: false, reason: "The user rejected this call in the editor; not run." };
      } catch (error) {
        // A failed request is a no: nothing runs without the editor's answer.
        return {
          approved: false,
          reason: `Asking the editor failed (${error instanceof Error ? error.message : String(error)}); not run.`,
        };
      }
    },
    async close() {
      running?.abort();
      await runtime.close();
    },
  };
}
