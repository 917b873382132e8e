import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
  LanguageModelV4,
} from "@ai-sdk/provider";
import { APICallError } from "@ai-sdk/provider";
import { afterEach, describe, expect, it } from "vitest";
import { withBearerKeyClient } from "./bearer-fetch.js";
import { createNodeHttpClient, MAX_TEXT_BYTES } from "./http/http-client.js";
import { createOllamaChatModel, MAX_OLLAMA_LINE_LENGTH } from "./ollama-chat-model.js";

interface Received {
  readonly headers: IncomingMessage["headers"];
  readonly body: Record<string, unknown>;
}

/** A loopback HTTP server whose `/api/chat` answers are written by the test, byte for byte. */
async function rawServer(
  answer: (response: ServerResponse, request: Received, index: number) => void | Promise<void>,
) {
  const received: Received[] = [];
  const closed: boolean[] = [];
  const server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      const entry = { headers: request.headers, body: JSON.parse(text || "{}") };
      const index = received.push(entry) - 1;
      response.on("close", () => (closed[index] = true));
      void answer(response, entry, index);
    });
  });
  const connections = { count: 0 };
  server.on("connection", () => (connections.count += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(server);
  return { url, received, closed, connections };
}
const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const line = (value: object) => `${JSON.stringify(value)}\n`;
const base = { model: "m", created_at: "2026-01-01T00:00:00Z" };
const done = (extra: object = {}) =>
  line({
    ...base,
    message: { role: "assistant", content: "" },
    done: true,
    done_reason: "stop",
    prompt_eval_count: 12,
    eval_count: 3,
    ...extra,
  });

function ndjson(response: ServerResponse, ...lines: string[]): void {
  response.writeHead(200, { "content-type": "application/x-ndjson" });
  response.end(lines.join(""));
}

const hello: LanguageModelV4CallOptions = {
  prompt: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
};

function model(url: string): LanguageModelV4 {
  return createOllamaChatModel({ host: url, model: "m", client: createNodeHttpClient() });
}

async function parts(target: LanguageModelV4, call = hello): Promise<LanguageModelV4StreamPart[]> {
  const { stream } = await target.doStream(call);
  const all: LanguageModelV4StreamPart[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done: finished, value } = await reader.read();
    if (finished) return all;
    all.push(value);
  }
}

describe("the Ollama chat model's request", () => {
  it("puts the call's settings in options, where Ollama reads them, and lets providerOptions win", async () => {
    const server = await rawServer((response) => ndjson(response, done()));
    await parts(model(server.url), {
      ...hello,
      maxOutputTokens: 8192,
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      seed: 7,
      stopSequences: ["END"],
      presencePenalty: 0.1,
      frequencyPenalty: 0.3,
      responseFormat: { type: "json" },
      providerOptions: { ollama: { options: { num_ctx: 4096, temperature: 0.5 }, think: true } },
    });
    expect(server.received[0]?.body).toEqual({
      model: "m",
      stream: true,
      messages: [{ role: "user", content: "hello" }],
      options: {
        num_predict: 8192,
        temperature: 0.5,
        top_p: 0.9,
        top_k: 40,
        seed: 7,
        stop: ["END"],
        presence_penalty: 0.1,
        frequency_penalty: 0.3,
        num_ctx: 4096,
      },
      format: "json",
      think: true,
    });
    expect(server.received[0]?.headers["content-type"]).toBe("application/json");
  });

  it("sends the conversation as Ollama's messages: tool calls with object arguments, tool results named, images in base64", async () => {
    const server = await rawServer((response) => ndjson(response, done()));
    await parts(model(server.url), {
      prompt: [
        { role: "system", content: "Be brief." },
        {
          role: "user",
          content: [
            { type: "text", text: "What is " },
            { type: "text", text: "this?" },
            {
              type: "file",
              mediaType: "image/png",
              data: { type: "data", data: new Uint8Array([1, 2, 3]) },
            },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "Look first." },
            { type: "text", text: "Let me look." },
            { type: "tool-call", toolCallId: "c1", toolName: "read_file", input: { path: "a" } },
            { type: "tool-call", toolCallId: "c2", toolName: "grep", input: '{"pattern":"x"}' },
          ],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "c1",
              toolName: "read_file",
              output: { type: "text", value: "A" },
            },
            {
              type: "tool-result",
              toolCallId: "c2",
              toolName: "grep",
              output: { type: "error-text", value: "no match" },
            },
          ],
        },
      ],
      tools: [
        {
          type: "function",
          name: "read_file",
          description: "Reads a file.",
          inputSchema: { type: "object", properties: { path: { type: "string" } } },
        },
      ],
      toolChoice: { type: "auto" },
    });
    expect(server.received[0]?.body["messages"]).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "What is this?", images: ["AQID"] },
      {
        role: "assistant",
        content: "Let me look.",
        thinking: "Look first.",
        tool_calls: [
          { id: "c1", function: { name: "read_file", arguments: { path: "a" } } },
          { id: "c2", function: { name: "grep", arguments: { pattern: "x" } } },
        ],
      },
      { role: "tool", content: "A", tool_name: "read_file", tool_call_id: "c1" },
      { role: "tool", content: "no match", tool_name: "grep", tool_call_id: "c2" },
    ]);
    expect(server.received[0]?.body["tools"]).toEqual([
      {
        type: "function",
        function: {
          name: "read_file",
          description: "Reads a file.",
          parameters: { type: "object", properties: { path: { type: "string" } } },
        },
      },
    ]);
  });

  it("sends no tools when the tool choice is none, and warns about what Ollama cannot take", async () => {
    const server = await rawServer((response) => ndjson(response, done()));
    const all = await parts(model(server.url), {
      prompt: [
        {
          role: "user",
          content: [
            { type: "text", text: "hi" },
            {
              type: "file",
              mediaType: "application/pdf",
              data: { type: "data", data: new Uint8Array([1]) },
            },
          ],
        },
      ],
      tools: [{ type: "function", name: "t", inputSchema: { type: "object" } }],
      toolChoice: { type: "none" },
    });
    expect(server.received[0]?.body["tools"]).toBeUndefined();
    expect(server.received[0]?.body["think"]).toBe(false);
    expect(all[0]).toEqual({
      type: "stream-start",
      warnings: [{ type: "unsupported", feature: "a application/pdf file given as data" }],
    });
  });
});

describe("the Ollama chat model's streamed answer", () => {
  it("gives text, thinking as reasoning, tool calls with ids, usage and the finish reason", async () => {
    const server = await rawServer((response) =>
      ndjson(
        response,
        line({
          ...base,
          message: { role: "assistant", content: "", thinking: "Hmm." },
          done: false,
        }),
        line({ ...base, message: { role: "assistant", content: "Reading " }, done: false }),
        line({ ...base, message: { role: "assistant", content: "it." }, done: false }),
        line({
          ...base,
          message: {
            role: "assistant",
            content: "",
            tool_calls: [
              { function: { index: 0, name: "read_file", arguments: { path: "a" } } },
              { function: { index: 1, name: "read_file", arguments: { path: "b" } } },
              { id: "given", function: { name: "grep", arguments: { pattern: "x" } } },
            ],
          },
          done: false,
        }),
        done(),
      ),
    );
    const all = await parts(model(server.url));
    const calls = all.filter((part) => part.type === "tool-call");
    expect(calls.map((call) => [call.toolName, call.input])).toEqual([
      ["read_file", '{"path":"a"}'],
      ["read_file", '{"path":"b"}'],
      ["grep", '{"pattern":"x"}'],
    ]);
    const ids = calls.map((call) => call.toolCallId);
    expect(new Set(ids).size).toBe(3);
    expect(ids[2]).toBe("given");
    expect(all.filter((part) => part.type === "text-delta").map((part) => part.delta)).toEqual([
      "Reading ",
      "it.",
    ]);
    expect(all.filter((part) => part.type === "reasoning-delta")).toEqual([
      { type: "reasoning-delta", id: "reasoning-0", delta: "Hmm." },
    ]);
    expect(all[1]).toEqual({
      type: "response-metadata",
      modelId: "m",
      timestamp: new Date("2026-01-01T00:00:00Z"),
    });
    expect(all.at(-1)).toEqual({
      type: "finish",
      finishReason: { unified: "tool-calls", raw: "stop" },
      usage: {
        inputTokens: { total: 12, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 3, text: undefined, reasoning: undefined },
      },
    });
  });

  it("reads to the end of the answer, so the next request reuses the connection", async () => {
    const server = await rawServer((response) =>
      ndjson(response, line({ ...base, message: { content: "ok" }, done: false }), done()),
    );
    const chat = model(server.url);
    for (let round = 0; round < 3; round += 1) await parts(chat);
    expect(server.received).toHaveLength(3);
    expect(server.connections.count).toBe(1);
  });

  it("gives each tool call its own id when Ollama repeats one or sends one that is not text", async () => {
    const call = (id: unknown) => ({ id, function: { name: "t", arguments: {} } });
    const server = await rawServer((response) =>
      ndjson(
        response,
        line({
          ...base,
          created_at: "not a date",
          message: { content: "", tool_calls: [call("a"), call("a"), call(7), call("")] },
          done: false,
        }),
        done({ done_reason: 42 }),
      ),
    );
    const all = await parts(model(server.url));
    const ids = all.flatMap((part) => (part.type === "tool-call" ? [part.toolCallId] : []));
    expect(ids[0]).toBe("a");
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(typeof id).toBe("string");
    expect(all.find((part) => part.type === "response-metadata")).toEqual({
      type: "response-metadata",
      modelId: "m",
    });
    expect(all.at(-1)).toMatchObject({ finishReason: { unified: "tool-calls", raw: undefined } });
  });

  it("maps done_reason length to length, and reads lines split across packets", async () => {
    const server = await rawServer(async (response) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      const text = line({ ...base, message: { role: "assistant", content: "Hé" }, done: false });
      const bytes = Buffer.from(text + done({ done_reason: "length" }));
      // Split inside the two-byte "é" and inside a line.
      const cut = Buffer.from(text).indexOf(0xc3) + 1;
      response.write(bytes.subarray(0, cut));
      await new Promise((resolve) => setTimeout(resolve, 20));
      response.end(bytes.subarray(cut));
    });
    const all = await parts(model(server.url));
    expect(all.filter((part) => part.type === "text-delta").map((part) => part.delta)).toEqual([
      "Hé",
    ]);
    expect(all.at(-1)).toMatchObject({ finishReason: { unified: "length", raw: "length" } });
  });

  it.each([
    [
      "an error line inside a 200 stream",
      line({ error: "out of memory" }),
      "Ollama reported an error: out of memory",
    ],
    [
      "a line that is not JSON",
      "<html>proxy error</html>\n",
      "Ollama sent a line that XZatoma cannot read: <html>proxy error</html>",
    ],
    [
      "a tool call without a name",
      line({
        ...base,
        message: { content: "", tool_calls: [{ function: { arguments: {} } }] },
        done: false,
      }),
      "Ollama sent a tool call that XZatoma cannot read",
    ],
    [
      "a message that is not an object",
      line({ ...base, message: "hi", done: false }),
      "Ollama sent a message that XZatoma cannot read",
    ],
    [
      "an answer that ends before done",
      line({ ...base, message: { content: "Hal" }, done: false }),
      "Ollama's answer ended before it was complete.",
    ],
  ])("fails the stream with a provider error on %s", async (_name, body, message) => {
    const server = await rawServer((response) => ndjson(response, body));
    const failure = await parts(model(server.url)).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: "PROVIDER_ERROR",
      message: expect.stringContaining(message),
    });
  });

  it("refuses a line longer than it reads, sent in many small pieces", async () => {
    const limit = 1024 * 1024;
    const piece = Buffer.alloc(4096, "a");
    const server = await rawServer(async (response) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      for (let sent = 0; sent <= 2 * limit && !response.destroyed; sent += piece.length) {
        if (!response.write(piece)) await new Promise((resolve) => response.once("drain", resolve));
      }
      response.end();
    });
    const limited = createOllamaChatModel({
      host: server.url,
      model: "m",
      client: createNodeHttpClient(),
      maxLineLength: limit,
    });
    const failure = await parts(limited).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: "PROVIDER_ERROR",
      message: `Ollama sent a line that XZatoma cannot read: longer than ${limit} characters`,
    });
    expect(MAX_OLLAMA_LINE_LENGTH).toBe(16 * 1024 * 1024);
  });

  it("stops reading when aborted mid-answer, and the connection closes", async () => {
    const server = await rawServer((response) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      response.write(line({ ...base, message: { content: "Hal" }, done: false }));
    });
    const controller = new AbortController();
    const { stream } = await model(server.url).doStream({
      ...hello,
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    expect((await reader.read()).value).toMatchObject({ type: "stream-start" });
    expect((await reader.read()).value).toMatchObject({ type: "response-metadata" });
    controller.abort();
    // The parts of the line already received may still come; then the read fails.
    let failure: unknown;
    for (let read = 0; read < 4 && failure === undefined; read += 1) {
      failure = await reader.read().then(
        () => undefined,
        (error: unknown) => error,
      );
    }
    expect(failure).toMatchObject({ name: "AbortError" });
    await expect.poll(() => server.closed[0], { timeout: 10_000 }).toBe(true);
  });
});

describe("the Ollama chat model's other answers", () => {
  it("turns an error status into an APICallError with Ollama's message and the status", async () => {
    const server = await rawServer((response) => {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: "model 'm' not found" }));
    });
    const failure = await Promise.resolve(model(server.url).doStream(hello)).catch(
      (error: unknown) => error,
    );
    expect(APICallError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      message: "model 'm' not found",
      statusCode: 404,
      url: `${server.url}/api/chat`,
      isRetryable: false,
    });
  });

  it("does not read an error answer past its size cap", async () => {
    const piece = Buffer.alloc(1024 * 1024, "x");
    const server = await rawServer(async (response) => {
      response.writeHead(500, { "content-type": "text/plain" });
      for (let sent = 0; sent <= MAX_TEXT_BYTES && !response.destroyed; sent += piece.length) {
        if (!response.write(piece)) await new Promise((resolve) => response.once("drain", resolve));
      }
      response.end();
    });
    const failure = await Promise.resolve(model(server.url).doStream(hello)).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RangeError);
    expect((failure as Error).message).toBe(
      `The answer is larger than ${MAX_TEXT_BYTES} bytes; it was not read.`,
    );
  });

  it("does not follow a redirect, and says where it points", async () => {
    const server = await rawServer((response) => {
      response.writeHead(301, { location: "https://ollama.example/api/chat" });
      response.end();
    });
    const failure = await Promise.resolve(model(server.url).doStream(hello)).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      statusCode: 301,
      message:
        "It redirects to https://ollama.example/api/chat; XZatoma does not follow redirects, so use that address.",
    });
    expect(server.received).toHaveLength(1);
  });

  it("answers doGenerate from one JSON object", async () => {
    const server = await rawServer((response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          ...base,
          message: {
            role: "assistant",
            content: "Done.",
            tool_calls: [{ function: { name: "t", arguments: { a: 1 } } }],
          },
          done: true,
          done_reason: "stop",
          prompt_eval_count: 5,
          eval_count: 2,
        }),
      );
    });
    const result = await model(server.url).doGenerate(hello);
    expect(server.received[0]?.body["stream"]).toBe(false);
    expect(result.content).toEqual([
      { type: "text", text: "Done." },
      { type: "tool-call", toolCallId: expect.any(String), toolName: "t", input: '{"a":1}' },
    ]);
    expect(result.finishReason).toEqual({ unified: "tool-calls", raw: "stop" });
    expect(result.usage.inputTokens.total).toBe(5);
  });

  it("asks for a key once when the server answers 401, then sends it with every request", async () => {
    const server = await rawServer((response, request) => {
      if (request.headers["authorization"] !== "Bearer sk-ollama") {
        response.writeHead(401, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: "unauthorized" }));
        return;
      }
      ndjson(response, line({ ...base, message: { content: "ok" }, done: false }), done());
    });
    let lookups = 0;
    const client = withBearerKeyClient(createNodeHttpClient(), {
      lookUpKey: async () => {
        lookups += 1;
        return "sk-ollama";
      },
    });
    const keyed = createOllamaChatModel({ host: server.url, model: "m", client });
    for (let round = 0; round < 2; round += 1) {
      const all = await parts(keyed);
      expect(all.find((part) => part.type === "text-delta")).toMatchObject({ delta: "ok" });
    }
    expect(server.received.map((request) => request.headers["authorization"])).toEqual([
      undefined,
      "Bearer sk-ollama",
      "Bearer sk-ollama",
    ]);
    expect(lookups).toBe(1);
  });
});
