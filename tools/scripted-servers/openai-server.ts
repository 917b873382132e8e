/**
 * A scripted server that speaks the OpenAI chat-completions protocol on 127.0.0.1, for
 * tests and benchmarks of the OpenAI and OpenAI-compatible providers (llama.cpp server,
 * vLLM, LM Studio speak the same). Real HTTP, real SSE: `POST /v1/chat/completions`
 * streams `data: {...}` chunks with tool-call deltas split across chunks (the name in one,
 * the arguments in several), a `finish_reason`, a usage chunk when
 * `stream_options.include_usage` is set, then `data: [DONE]`. `POST /v1/responses` streams
 * the Responses API events (`response.output_text.delta`, `response.output_item.done` with a
 * `function_call`, `response.completed` with usage). `GET /v1/models` lists models.
 *
 * A scenario decides each chat reply from the request, so runs are deterministic, and a
 * reply may carry a fault: an HTTP error (429 with `Retry-After`, 500, ...), a connection
 * reset mid-stream, a malformed JSON chunk, or a stream that stalls without closing.
 *
 * Run it alone (Node >= 22.18 runs TypeScript directly):
 *   node tools/scripted-servers/openai-server.ts --scenario weather [--port 0]
 * It prints `{"url": "http://127.0.0.1:PORT/v1"}` on stdout once listening.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { closeServer, listenOnLoopback, readBody, runStandalone, sendJson } from "./http.ts";

/** A chat message as `/chat/completions` receives it. */
export interface OpenAIChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | null | { type: string; text?: string }[];
  tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** The body of `POST /chat/completions`. */
export interface OpenAIChatRequest {
  model: string;
  messages: OpenAIChatMessage[];
  tools?: {
    type: "function";
    function: { name: string; description?: string; parameters: unknown };
  }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

/** A tool call the scripted model makes. */
export interface ScriptedToolCall {
  name: string;
  /** An object (serialised) or a raw JSON string. */
  arguments: Record<string, unknown> | string;
}

/** Something that goes wrong with one reply. */
export type Fault =
  /** Answers with this HTTP status and an OpenAI-style error body. */
  | { kind: "status"; status: number; retryAfter?: string; message?: string }
  /** Sends `afterChunks` SSE events (default 2), then resets the connection. */
  | { kind: "reset"; afterChunks?: number }
  /** Sends `afterChunks` events (default 2), then a chunk that is not JSON, then the rest. */
  | { kind: "malformed"; afterChunks?: number }
  /** Sends `afterChunks` events (default 2), then nothing, never closing the stream. */
  | { kind: "stall"; afterChunks?: number };

/** One scripted reply. */
export interface ScriptedReply {
  /** Text of the answer, streamed word by word. */
  content?: string;
  /** Tool calls, each streamed as a name chunk followed by several argument chunks. */
  toolCalls?: ScriptedToolCall[];
  fault?: Fault;
  /** Waits this long before answering. */
  delayMs?: number;
}

/** A provider-neutral view of a chat request, for scenarios. */
export interface ChatView {
  /** `chat` for `/chat/completions`, `responses` for the Responses API. */
  endpoint: "chat" | "responses";
  model: string;
  /** Roles and texts, in order; tool calls show as assistant messages with `toolCalls`. */
  messages: { role: string; content: string; toolCalls?: string[] }[];
  /** Names of the tools the request offers. */
  tools: string[];
  /** The raw request body. */
  body: unknown;
}

/** Decides the reply to the `index`-th chat request (0-based). */
export type ChatScenario = (request: ChatView, index: number) => ScriptedReply;

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** Parsed JSON body, the raw text if not JSON, or undefined. */
  body: unknown;
  /** The status the server answered with. */
  status?: number;
  /** `performance.timeOrigin + performance.now()` at arrival. */
  time: number;
}

/** A running scripted OpenAI server. */
export interface ScriptedOpenAI {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  /** Every request received, in order, any path. */
  readonly requests: RecordedRequest[];
  /** Bodies of the chat requests (`/chat/completions` and `/responses`), in order. */
  readonly chatRequests: OpenAIChatRequest[];
  close(): Promise<void>;
}

/** Options of {@link startScriptedOpenAI}. */
export interface ScriptedOpenAIOptions {
  scenario: ChatScenario;
  port?: number;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`; others get 401. */
  apiKey?: string;
  /** Model ids `GET /v1/models` lists. */
  models?: string[];
  /**
   * When true, error bodies repeat the Authorization header received, as a careless
   * server might, so tests can check that clients keep credentials out of errors.
   */
  echoCredentials?: boolean;
}

export function lastText(view: ChatView, role: string): string {
  return view.messages.findLast((message) => message.role === role)?.content ?? "";
}

/** A tool result's gist: a terminal's first line of output, else the first line. */
function firstLineOf(text: string): string {
  const output = text.split("--- stdout ---\n")[1] ?? text;
  return output.trim().split("\n")[0] ?? "";
}

/** An 8-hex-digit FNV-1a hash of a text. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

export function toolResultCount(view: ChatView): number {
  return view.messages.filter((message) => message.role === "tool").length;
}

/** The scenarios the standalone server offers by name. */
export const SCENARIOS: Record<string, ChatScenario> = {
  /** Answers with the user's words. */
  echo: (request) => ({ content: `You said: ${lastText(request, "user")}` }),
  /** Calls get_weather for Paris, then answers with what the tool said. */
  weather: (request) =>
    toolResultCount(request) === 0
      ? { toolCalls: [{ name: "get_weather", arguments: { city: "Paris", unit: "celsius" } }] }
      : { content: `The forecast: ${lastText(request, "tool")}` },
  /**
   * Works through a plan as a watcher demo shows it: runs an `echo` in the terminal, writes a
   * report named after the request (so concurrent plans write different files), then answers
   * with what it did.
   */
  "plan-report": (request) => {
    const done = toolResultCount(request);
    const task = request.messages.find((message) => message.role === "user")?.content ?? "";
    const report = `reports/plan-${shortHash(task)}.txt`;
    if (done === 0)
      return {
        toolCalls: [
          { name: "terminal", arguments: { command: "echo XZatoma received this event" } },
        ],
      };
    if (done === 1) {
      const said = firstLineOf(lastText(request, "tool"));
      return {
        toolCalls: [
          {
            name: "write_file",
            arguments: {
              path: report,
              content: `XZatoma plan report\nterminal: ${said}\nend of report\n`,
            },
          },
        ],
      };
    }
    return {
      content: `Done. I ran an echo in the terminal and wrote ${report}. The tools said:\n${request.messages
        .filter((message) => message.role === "tool")
        .map((message) => `- ${firstLineOf(message.content)}`)
        .join("\n")}`,
    };
  },
  /**
   * The demo `bash tools/start.sh` runs: lists `packages/` with list_directory, then answers
   * with the package names read from the listing the tool returned.
   */
  "start-demo": (request) => {
    if (toolResultCount(request) === 0)
      return { toolCalls: [{ name: "list_directory", arguments: { path: "packages" } }] };
    const listing = lastText(request, "tool");
    const names = listing
      .split("\n")
      .map((line) => /^([^\s/]+) dir \d+$/.exec(line.trim())?.[1])
      .filter((name): name is string => name !== undefined);
    return {
      content:
        names.length > 0
          ? `This checkout holds ${names.length} packages under packages/: ${names.join(", ")}. I read them from the list_directory result above.`
          : `list_directory answered: ${firstLineOf(listing)}`,
    };
  },
  /** Never gives a final answer; each call asks about another day, so it is no repeated call. */
  forever: (_request, index) => ({
    toolCalls: [{ name: "get_weather", arguments: { city: "Paris", day: index } }],
  }),
};

export { readBody, sendJson };

export function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === "") return undefined;
  if (contentType?.includes("application/x-www-form-urlencoded"))
    return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function contentText(content: OpenAIChatMessage["content"]): string {
  if (typeof content === "string") return content;
  if (!content) return "";
  return content.map((part) => part.text ?? "").join("");
}

/** The {@link ChatView} of a `/chat/completions` body. */
export function chatViewOf(body: OpenAIChatRequest): ChatView {
  return {
    endpoint: "chat",
    model: body.model,
    messages: body.messages.map((message) => ({
      role: message.role,
      content: contentText(message.content),
      ...(message.tool_calls
        ? { toolCalls: message.tool_calls.map((call) => call.function.name) }
        : {}),
    })),
    tools: (body.tools ?? []).map((tool) => tool.function.name),
    body,
  };
}

/** Splits a string into `parts` pieces of near-equal length (some may be empty if short). */
export function splitInto(text: string, parts: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / parts));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(text.slice(start, start + size));
  return pieces;
}

export function argumentsText(call: ScriptedToolCall): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

/** Words of a text, each keeping its trailing space. */
export function words(text: string): string[] {
  return text.split(/(?<= )/).filter((word) => word !== "");
}

export function estimateTokens(value: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(value ?? "").length / 4));
}

let sequence = 0;

/** The SSE `data:` payloads of a streamed chat completion (without `[DONE]`). */
export function chatCompletionChunks(
  request: OpenAIChatRequest,
  reply: ScriptedReply,
): Record<string, unknown>[] {
  sequence += 1;
  const base = {
    id: `chatcmpl-scripted-${sequence}`,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    system_fingerprint: "fp_scripted",
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks: Record<string, unknown>[] = [chunk({ role: "assistant", content: "" })];
  for (const word of words(reply.content ?? "")) chunks.push(chunk({ content: word }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [
          {
            index,
            id: `call_scripted_${sequence}_${index}`,
            type: "function",
            function: { name: call.name, arguments: "" },
          },
        ],
      }),
    );
    for (const piece of splitInto(argumentsText(call), 3))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, reply.toolCalls && reply.toolCalls.length > 0 ? "tool_calls" : "stop"));
  if (request.stream_options?.include_usage) {
    const promptTokens = estimateTokens(request.messages);
    const completionTokens = estimateTokens([reply.content, reply.toolCalls]);
    chunks.push({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    });
  }
  return chunks;
}

/** The body of a non-streamed chat completion. */
export function chatCompletion(
  request: OpenAIChatRequest,
  reply: ScriptedReply,
): Record<string, unknown> {
  sequence += 1;
  const promptTokens = estimateTokens(request.messages);
  const completionTokens = estimateTokens([reply.content, reply.toolCalls]);
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: `call_scripted_${sequence}_${index}`,
    type: "function",
    function: { name: call.name, arguments: argumentsText(call) },
  }));
  return {
    id: `chatcmpl-scripted-${sequence}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.content ?? null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

/** One item of a Responses API `input`. */
export interface ResponsesInputItem {
  type?: string;
  role?: string;
  content?: string | { type: string; text?: string }[];
  name?: string;
  arguments?: string;
  call_id?: string;
  output?: unknown;
}

/** The body of `POST /responses`. */
export interface ResponsesRequest {
  model: string;
  input: ResponsesInputItem[];
  tools?: { type: string; name?: string }[];
  stream?: boolean;
}

function itemText(content: ResponsesInputItem["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => part.text ?? "").join("");
}

/** The {@link ChatView} of a `/responses` body. */
export function responsesViewOf(body: ResponsesRequest): ChatView {
  const messages: ChatView["messages"] = [];
  for (const item of body.input ?? []) {
    if (item.type === "function_call") {
      messages.push({ role: "assistant", content: "", toolCalls: [item.name ?? ""] });
    } else if (item.type === "function_call_output") {
      const output = item.output;
      messages.push({
        role: "tool",
        content: typeof output === "string" ? output : JSON.stringify(output),
      });
    } else if (item.role) {
      messages.push({ role: item.role, content: itemText(item.content) });
    }
  }
  return {
    endpoint: "responses",
    model: body.model,
    messages,
    tools: (body.tools ?? []).map((tool) => tool.name ?? ""),
    body,
  };
}

/** The events of a streamed Responses API answer. */
export function responsesEvents(
  request: ResponsesRequest,
  reply: ScriptedReply,
): Record<string, unknown>[] {
  sequence += 1;
  const id = `resp_scripted_${sequence}`;
  const createdAt = Math.floor(Date.now() / 1000);
  const header = { id, object: "response", created_at: createdAt, model: request.model };
  const events: Record<string, unknown>[] = [];
  let number = 0;
  const push = (event: Record<string, unknown>) =>
    events.push({ ...event, sequence_number: number++ });
  push({ type: "response.created", response: { ...header, status: "in_progress", output: [] } });
  push({
    type: "response.in_progress",
    response: { ...header, status: "in_progress", output: [] },
  });
  const output: Record<string, unknown>[] = [];
  if (reply.content) {
    const itemId = `msg_scripted_${sequence}`;
    const outputIndex = output.length;
    push({
      type: "response.output_item.added",
      output_index: outputIndex,
      item: { type: "message", id: itemId, status: "in_progress", role: "assistant", content: [] },
    });
    for (const word of words(reply.content)) {
      push({
        type: "response.output_text.delta",
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        delta: word,
      });
    }
    const item = {
      type: "message",
      id: itemId,
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: reply.content, annotations: [] }],
    };
    push({ type: "response.output_item.done", output_index: outputIndex, item });
    output.push(item);
  }
  (reply.toolCalls ?? []).forEach((call, index) => {
    const itemId = `fc_scripted_${sequence}_${index}`;
    const callId = `call_scripted_${sequence}_${index}`;
    const outputIndex = output.length;
    const args = argumentsText(call);
    push({
      type: "response.output_item.added",
      output_index: outputIndex,
      item: {
        type: "function_call",
        id: itemId,
        call_id: callId,
        name: call.name,
        arguments: "",
        status: "in_progress",
      },
    });
    for (const piece of splitInto(args, 3)) {
      push({
        type: "response.function_call_arguments.delta",
        item_id: itemId,
        output_index: outputIndex,
        delta: piece,
      });
    }
    push({
      type: "response.function_call_arguments.done",
      item_id: itemId,
      output_index: outputIndex,
      arguments: args,
    });
    const item = {
      type: "function_call",
      id: itemId,
      call_id: callId,
      name: call.name,
      arguments: args,
      status: "completed",
    };
    push({ type: "response.output_item.done", output_index: outputIndex, item });
    output.push(item);
  });
  const inputTokens = estimateTokens(request.input);
  const outputTokens = estimateTokens([reply.content, reply.toolCalls]);
  push({
    type: "response.completed",
    response: {
      ...header,
      status: "completed",
      output,
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: inputTokens + outputTokens,
      },
    },
  });
  return events;
}

/** Answers with the HTTP error of a `status` fault. */
export function sendStatusFault(
  response: ServerResponse,
  fault: Extract<Fault, { kind: "status" }>,
  extraMessage = "",
): void {
  const message =
    fault.message ??
    (fault.status === 429
      ? "Rate limit reached for requests. Please try again later."
      : "The server had an error while processing your request.");
  sendJson(
    response,
    fault.status,
    {
      error: {
        message: `${message}${extraMessage}`,
        type: fault.status === 429 ? "rate_limit_exceeded" : "server_error",
        code: null,
        param: null,
      },
    },
    fault.retryAfter === undefined ? {} : { "retry-after": fault.retryAfter },
  );
}

/**
 * Streams `events` as SSE (`data: <json>` each, or `event:` + `data:` when an event has
 * a `type` and `named` is set), applying a stream fault, then `data: [DONE]` if `done`.
 */
export async function writeSse(
  response: ServerResponse,
  events: Record<string, unknown>[],
  options: { fault?: Fault; done?: boolean; named?: boolean } = {},
): Promise<void> {
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const fault = options.fault?.kind === "status" ? undefined : options.fault;
  const cut = fault ? Math.min(fault.afterChunks ?? 2, events.length) : events.length;
  const frame = (event: Record<string, unknown>) =>
    options.named && typeof event["type"] === "string"
      ? `event: ${event["type"]}\ndata: ${JSON.stringify(event)}\n\n`
      : `data: ${JSON.stringify(event)}\n\n`;
  const write = (text: string) =>
    new Promise<void>((resolve) => {
      response.write(text, () => resolve());
    });
  for (const event of events.slice(0, cut)) await write(frame(event));
  if (fault?.kind === "reset") {
    response.socket?.resetAndDestroy();
    return;
  }
  if (fault?.kind === "stall") return; // Never ends: the server's close() cuts it.
  if (fault?.kind === "malformed")
    await write(`data: {"choices": [{"index": 0, "delta": {"con\n\n`);
  for (const event of events.slice(cut)) await write(frame(event));
  if (options.done !== false) await write("data: [DONE]\n\n");
  response.end();
}

/** Starts a scripted OpenAI server on 127.0.0.1 (an ephemeral port unless `port` is given). */
export async function startScriptedOpenAI(options: ScriptedOpenAIOptions): Promise<ScriptedOpenAI> {
  const requests: RecordedRequest[] = [];
  const chatRequests: OpenAIChatRequest[] = [];
  const models = options.models ?? ["gpt-4o-mini", "gpt-4.1", "text-embedding-3-small"];
  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const headers = headersOf(request);
    const text = await readBody(request);
    const record: RecordedRequest = {
      method: request.method ?? "GET",
      path: url.pathname,
      headers,
      body: parseBody(text, headers["content-type"]),
      time: performance.timeOrigin + performance.now(),
    };
    requests.push(record);
    response.on("finish", () => (record.status = response.statusCode));
    const path = url.pathname.replace(/^\/v1(?=\/)/, "");

    if (options.apiKey !== undefined && headers["authorization"] !== `Bearer ${options.apiKey}`) {
      const echoed = options.echoCredentials
        ? ` (received '${headers["authorization"] ?? "nothing"}')`
        : "";
      return sendJson(response, 401, {
        error: {
          message: `Incorrect API key provided${echoed}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: "invalid_request_error",
          code: "invalid_api_key",
          param: null,
        },
      });
    }
    if (request.method === "GET" && path === "/models") {
      return sendJson(response, 200, {
        object: "list",
        data: models.map((id) => ({
          id,
          object: "model",
          created: 1_715_367_049,
          owned_by: "system",
        })),
      });
    }
    if (request.method === "POST" && path === "/chat/completions") {
      const body = record.body as OpenAIChatRequest;
      const index = chatRequests.length;
      chatRequests.push(body);
      const reply = options.scenario(chatViewOf(body), index);
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (reply.fault?.kind === "status") return sendStatusFault(response, reply.fault);
      if (body.stream !== true) return sendJson(response, 200, chatCompletion(body, reply));
      return writeSse(response, chatCompletionChunks(body, reply), {
        ...(reply.fault ? { fault: reply.fault } : {}),
      });
    }
    if (request.method === "POST" && path === "/responses") {
      const body = record.body as ResponsesRequest;
      const index = chatRequests.length;
      chatRequests.push(body as unknown as OpenAIChatRequest);
      const reply = options.scenario(responsesViewOf(body), index);
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (reply.fault?.kind === "status") return sendStatusFault(response, reply.fault);
      return writeSse(response, responsesEvents(body, reply), {
        ...(reply.fault ? { fault: reply.fault } : {}),
        named: true,
        done: false,
      });
    }
    sendJson(response, 404, {
      error: {
        message: `Unknown path ${request.method ?? "?"} ${url.pathname}`,
        type: "invalid_request_error",
      },
    });
  }

  const origin = await listenOnLoopback(server, options.port);
  return { url: `${origin}/v1`, requests, chatRequests, close: () => closeServer(server) };
}

/** A scenario that answers the `index`-th request with `faults[index]` when there is one. */
export function withFaults(
  faults: readonly (Fault | undefined)[],
  scenario: ChatScenario,
): ChatScenario {
  return (request, index) => {
    const fault = faults[index];
    return fault ? { ...scenario(request, index), fault } : scenario(request, index);
  };
}

// Standalone: node tools/scripted-servers/openai-server.ts --scenario NAME [--port N]
if (import.meta.main) {
  await runStandalone({
    scenarios: SCENARIOS,
    start: (scenario, port) => startScriptedOpenAI({ scenario, port }),
    describe: (server) => ({ url: server.url }),
  });
}
