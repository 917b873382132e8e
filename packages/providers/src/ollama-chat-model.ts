import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
  SharedV4Warning,
} from "@ai-sdk/provider";
import { ProviderError } from "@xzatoma/core";
import type { HttpClient, HttpResponse } from "./http/http-client.js";
import { parseJsonAnswer } from "./retry/http.js";
import { newToolCallId } from "./tool-call-id.js";

/** Options of {@link createOllamaChatModel}. */
export interface OllamaChatModelOptions {
  /** The server's base URL without `/api`. */
  readonly host: string;
  /** The model name as Ollama knows it. */
  readonly model: string;
  /** Sends the requests. */
  readonly client: HttpClient;
  /** Extra HTTP headers for every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The longest line of the answer read, in characters. Default {@link MAX_OLLAMA_LINE_LENGTH}. */
  readonly maxLineLength?: number;
}

/** The longest line of Ollama's stream XZatoma reads (one chunk is a few hundred bytes). */
export const MAX_OLLAMA_LINE_LENGTH = 16 * 1024 * 1024;

interface OllamaToolCall {
  readonly id?: string;
  readonly function: { readonly name: string; readonly arguments: unknown };
}

interface OllamaChunk {
  readonly model?: string;
  readonly created_at?: string;
  readonly message?: {
    readonly content?: string;
    readonly thinking?: string;
    readonly tool_calls?: readonly OllamaToolCall[] | null;
  };
  readonly done?: boolean;
  readonly done_reason?: string;
  readonly prompt_eval_count?: number;
  readonly eval_count?: number;
  readonly error?: unknown;
}

type OllamaMessage = Record<string, unknown>;

function base64(data: Uint8Array | string): string {
  if (typeof data === "string") return data.startsWith("data:") ? (data.split(",")[1] ?? "") : data;
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
}

function toolArguments(input: unknown): unknown {
  if (typeof input !== "string") return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/** The prompt as Ollama's `messages`. Parts Ollama cannot take are left out with a warning. */
function toOllamaMessages(
  prompt: LanguageModelV4Prompt,
  warnings: SharedV4Warning[],
): OllamaMessage[] {
  const messages: OllamaMessage[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case "system":
        messages.push({ role: "system", content: message.content });
        break;
      case "user": {
        let text = "";
        const images: string[] = [];
        for (const part of message.content) {
          if (part.type === "text") text += part.text;
          else if (part.mediaType.startsWith("image/") && part.data.type === "data")
            images.push(base64(part.data.data));
          else
            warnings.push({
              type: "unsupported",
              feature: `a ${part.mediaType} file given as ${part.data.type}`,
            });
        }
        messages.push({ role: "user", content: text, ...(images.length > 0 ? { images } : {}) });
        break;
      }
      case "assistant": {
        let text = "";
        let thinking = "";
        const calls: OllamaMessage[] = [];
        for (const part of message.content) {
          if (part.type === "text") text += part.text;
          else if (part.type === "reasoning") thinking += part.text;
          else if (part.type === "tool-call")
            calls.push({
              id: part.toolCallId,
              function: { name: part.toolName, arguments: toolArguments(part.input) },
            });
          else warnings.push({ type: "unsupported", feature: `assistant ${part.type} parts` });
        }
        messages.push({
          role: "assistant",
          content: text,
          ...(thinking ? { thinking } : {}),
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        });
        break;
      }
      case "tool":
        for (const part of message.content) {
          if (part.type !== "tool-result") {
            warnings.push({ type: "unsupported", feature: `tool ${part.type} parts` });
            continue;
          }
          const output = part.output;
          const content =
            output.type === "text" || output.type === "error-text"
              ? output.value
              : output.type === "execution-denied"
                ? (output.reason ?? "The tool call was denied.")
                : JSON.stringify(output.value);
          messages.push({
            role: "tool",
            content,
            tool_name: part.toolName,
            tool_call_id: part.toolCallId,
          });
        }
        break;
    }
  }
  return messages;
}

/**
 * The body of `POST /api/chat`. The call's settings go where Ollama reads them, in
 * `options` (`num_predict` is the output cap); `providerOptions.ollama.options` adds to
 * them and wins, and `providerOptions.ollama.think` / `keep_alive` pass through. `think`
 * is false unless that option or the call's `reasoning` asks for it.
 */
function chatRequest(
  model: string,
  call: LanguageModelV4CallOptions,
  stream: boolean,
): { body: Record<string, unknown>; warnings: SharedV4Warning[] } {
  const warnings: SharedV4Warning[] = [];
  const ollama = (call.providerOptions?.["ollama"] ?? {}) as Record<string, unknown>;
  const extra = ollama["options"];
  const options: Record<string, unknown> = {
    ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
    ...(call.topP !== undefined ? { top_p: call.topP } : {}),
    ...(call.topK !== undefined ? { top_k: call.topK } : {}),
    ...(call.seed !== undefined ? { seed: call.seed } : {}),
    ...(call.stopSequences?.length ? { stop: call.stopSequences } : {}),
    ...(call.maxOutputTokens !== undefined ? { num_predict: call.maxOutputTokens } : {}),
    ...(call.presencePenalty !== undefined ? { presence_penalty: call.presencePenalty } : {}),
    ...(call.frequencyPenalty !== undefined ? { frequency_penalty: call.frequencyPenalty } : {}),
    ...(extra && typeof extra === "object" ? extra : {}),
  };
  const tools: OllamaMessage[] = [];
  if (call.toolChoice?.type !== "none") {
    for (const tool of call.tools ?? []) {
      if (tool.type !== "function") {
        warnings.push({ type: "unsupported", feature: "provider tools", details: tool.name });
        continue;
      }
      tools.push({
        type: "function",
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      });
    }
  }
  if (call.toolChoice?.type === "required" || call.toolChoice?.type === "tool") {
    warnings.push({ type: "unsupported", feature: `toolChoice ${call.toolChoice.type}` });
  }
  // Thinking stays off unless asked for, as the earlier provider had it: `think: false`
  // is sent, not left to the server's default for the model.
  const think =
    ollama["think"] ??
    (call.reasoning !== undefined && call.reasoning !== "provider-default"
      ? call.reasoning !== "none"
      : false);
  const body: Record<string, unknown> = {
    model,
    messages: toOllamaMessages(call.prompt, warnings),
    stream,
    ...(tools.length > 0 ? { tools } : {}),
    ...(Object.keys(options).length > 0 ? { options } : {}),
    ...(call.responseFormat?.type === "json"
      ? { format: call.responseFormat.schema ?? "json" }
      : {}),
    think,
    ...(ollama["keep_alive"] !== undefined ? { keep_alive: ollama["keep_alive"] } : {}),
  };
  return { body, warnings };
}

function finishReason(value: unknown, toolCalls: boolean): LanguageModelV4FinishReason {
  const reason = typeof value === "string" ? value : undefined;
  if (toolCalls) return { unified: "tool-calls", raw: reason };
  switch (reason) {
    case "stop":
      return { unified: "stop", raw: reason };
    case "length":
      return { unified: "length", raw: reason };
    default:
      return { unified: "other", raw: reason };
  }
}

function usage(chunk: OllamaChunk | undefined): LanguageModelV4Usage {
  const count = (value: unknown) => (typeof value === "number" ? value : undefined);
  return {
    inputTokens: {
      total: count(chunk?.prompt_eval_count),
      noCache: undefined,
      cacheRead: undefined,
      cacheWrite: undefined,
    },
    outputTokens: { total: count(chunk?.eval_count), text: undefined, reasoning: undefined },
  };
}

/** `created_at` as a date, when it is one. */
function timestamp(chunk: OllamaChunk): { timestamp?: Date } {
  const date = typeof chunk.created_at === "string" ? new Date(chunk.created_at) : undefined;
  return date && !Number.isNaN(date.getTime()) ? { timestamp: date } : {};
}

/**
 * The ids of one answer's tool calls: Ollama's own when it gives a string not used before in
 * the answer, else a new one, so each call's result is paired with that call alone.
 */
function toolCallIds(): (call: OllamaToolCall) => string {
  const used = new Set<string>();
  return (call) => {
    let id = typeof call.id === "string" && call.id !== "" ? call.id : newToolCallId();
    while (used.has(id)) id = newToolCallId();
    used.add(id);
    return id;
  };
}

function unreadable(what: string, detail: string): ProviderError {
  return new ProviderError(`Ollama sent ${what} that XZatoma cannot read: ${detail}`);
}

/** One object of Ollama's answer, checked for the fields XZatoma reads. */
function readChunk(value: unknown, raw: string): OllamaChunk {
  const excerpt = raw.length > 200 ? `${raw.slice(0, 200)}...` : raw;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw unreadable("an answer", excerpt);
  const chunk = value as OllamaChunk;
  if (typeof chunk.error === "string" && chunk.done === undefined)
    throw new ProviderError(`Ollama reported an error: ${chunk.error}`);
  const message = chunk.message;
  if (message !== undefined) {
    if (typeof message !== "object" || message === null) throw unreadable("a message", excerpt);
    if (message.content !== undefined && typeof message.content !== "string")
      throw unreadable("a message", excerpt);
    if (message.thinking !== undefined && typeof message.thinking !== "string")
      throw unreadable("a message", excerpt);
    const calls = message.tool_calls;
    if (calls !== undefined && calls !== null) {
      if (!Array.isArray(calls)) throw unreadable("tool calls", excerpt);
      for (const call of calls as unknown[]) {
        const fn = (call as OllamaToolCall | null)?.function;
        if (typeof fn?.name !== "string" || fn.name === "")
          throw unreadable("a tool call", excerpt);
      }
    }
  }
  return chunk;
}

function parseLine(line: string): OllamaChunk {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw unreadable("a line", line.length > 200 ? `${line.slice(0, 200)}...` : line);
  }
  return readChunk(value, line);
}

/**
 * The objects of an NDJSON body, one per line. Each piece of text is searched once, so a
 * server that sends a long line in many small pieces costs linear time; a line past
 * `maxLength` characters ends the answer.
 */
async function* ndjsonObjects(
  response: HttpResponse,
  maxLength: number,
): AsyncGenerator<OllamaChunk> {
  const decoder = new TextDecoder();
  const tooLong = () => unreadable("a line", `longer than ${maxLength} characters`);
  let pending = "";
  for await (const bytes of response.body) {
    const text = decoder.decode(bytes, { stream: true });
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      const line = (pending + text.slice(start, newline)).trim();
      pending = "";
      if (line.length > maxLength) throw tooLong();
      if (line !== "") yield parseLine(line);
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    pending += start === 0 ? text : text.slice(start);
    if (pending.length > maxLength) throw tooLong();
  }
  const rest = (pending + decoder.decode()).trim();
  if (rest !== "") yield parseLine(rest);
}

function toolInput(call: OllamaToolCall): string {
  const value = call.function.arguments;
  return typeof value === "string" ? value : JSON.stringify(value ?? {});
}

/** The stream parts of Ollama's streamed answer. */
async function* streamParts(
  response: HttpResponse,
  warnings: SharedV4Warning[],
  maxLineLength: number,
): AsyncGenerator<LanguageModelV4StreamPart> {
  yield { type: "stream-start", warnings };
  let first = true;
  let textId: string | undefined;
  let reasoningId: string | undefined;
  let calls = false;
  let last: OllamaChunk | undefined;
  const idFor = toolCallIds();
  for await (const chunk of ndjsonObjects(response, maxLineLength)) {
    if (last !== undefined) continue;
    if (first) {
      first = false;
      yield {
        type: "response-metadata",
        ...(typeof chunk.model === "string" ? { modelId: chunk.model } : {}),
        ...timestamp(chunk),
      };
    }
    const message = chunk.message;
    if (message?.thinking) {
      if (reasoningId === undefined) {
        reasoningId = "reasoning-0";
        yield { type: "reasoning-start", id: reasoningId };
      }
      yield { type: "reasoning-delta", id: reasoningId, delta: message.thinking };
    }
    if (message?.content) {
      if (textId === undefined) {
        textId = "text-0";
        yield { type: "text-start", id: textId };
      }
      yield { type: "text-delta", id: textId, delta: message.content };
    }
    for (const call of message?.tool_calls ?? []) {
      const id = idFor(call);
      const input = toolInput(call);
      calls = true;
      yield { type: "tool-input-start", id, toolName: call.function.name };
      yield { type: "tool-input-delta", id, delta: input };
      yield { type: "tool-input-end", id };
      yield { type: "tool-call", toolCallId: id, toolName: call.function.name, input };
    }
    // Read on to the end of the body, past the `done` line, so the connection is kept for
    // the next request; leaving the loop would destroy it.
    if (chunk.done === true) last = chunk;
  }
  if (last === undefined) throw new ProviderError("Ollama's answer ended before it was complete.");
  if (reasoningId !== undefined) yield { type: "reasoning-end", id: reasoningId };
  if (textId !== undefined) yield { type: "text-end", id: textId };
  yield { type: "finish", finishReason: finishReason(last.done_reason, calls), usage: usage(last) };
}

/** A ReadableStream over an async generator, which stops the generator when cancelled. */
function toReadableStream<T>(parts: AsyncGenerator<T>, onCancel: () => void): ReadableStream<T> {
  return new ReadableStream<T>({
    async pull(controller) {
      const { done, value } = await parts.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      onCancel();
      await parts.return(undefined);
    },
  });
}

/**
 * An AI SDK language model for Ollama's `POST /api/chat`, sent with an {@link HttpClient}:
 * NDJSON streaming, tool calls (ids made up when Ollama gives none), thinking as
 * reasoning, token counts. An error answer is an `APICallError` (so retries and error
 * wording see its status); an `{"error": ...}` line inside a 200 stream, a line that is not
 * JSON, and a stream that ends before `done` are `ProviderError`s.
 */
export function createOllamaChatModel(options: OllamaChatModelOptions): LanguageModelV4 {
  const url = `${options.host}/api/chat`;
  async function send(call: LanguageModelV4CallOptions, stream: boolean) {
    const { body, warnings } = chatRequest(options.model, call, stream);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: stream ? "application/x-ndjson" : "application/json",
      ...options.headers,
    };
    for (const [name, value] of Object.entries(call.headers ?? {}))
      if (value !== undefined) headers[name.toLowerCase()] = value;
    const response = await options.client({
      url,
      method: "POST",
      headers,
      body: JSON.stringify(body),
      ...(call.abortSignal ? { signal: call.abortSignal } : {}),
    });
    if (response.status < 200 || response.status > 299)
      parseJsonAnswer({ url, ...response, text: await response.text() });
    return { body, warnings, response };
  }
  return {
    specificationVersion: "v4",
    provider: "ollama.chat",
    modelId: options.model,
    supportedUrls: {},
    async doStream(call) {
      const { body, warnings, response } = await send(call, true);
      return {
        stream: toReadableStream(
          streamParts(response, warnings, options.maxLineLength ?? MAX_OLLAMA_LINE_LENGTH),
          () => response.cancel(),
        ),
        request: { body },
        response: { headers: { ...response.headers } },
      };
    },
    async doGenerate(call): Promise<LanguageModelV4GenerateResult> {
      const { body, warnings, response } = await send(call, false);
      const text = await response.text();
      const chunk = parseLine(text.trim());
      const content: LanguageModelV4Content[] = [];
      const idFor = toolCallIds();
      if (chunk.message?.thinking)
        content.push({ type: "reasoning", text: chunk.message.thinking });
      if (chunk.message?.content) content.push({ type: "text", text: chunk.message.content });
      for (const call of chunk.message?.tool_calls ?? []) {
        content.push({
          type: "tool-call",
          toolCallId: idFor(call),
          toolName: call.function.name,
          input: toolInput(call),
        });
      }
      return {
        content,
        finishReason: finishReason(
          chunk.done_reason,
          content.some((part) => part.type === "tool-call"),
        ),
        usage: usage(chunk),
        warnings,
        request: { body },
        response: {
          modelId: typeof chunk.model === "string" ? chunk.model : options.model,
          ...timestamp(chunk),
          headers: { ...response.headers },
          body: text,
        },
      };
    },
  };
}
