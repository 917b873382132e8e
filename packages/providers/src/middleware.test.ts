// The providers' wrappers are AI SDK middleware composed once by `wrapLanguageModel`: the
// composition follows the AI SDK's own rule (first middleware outermost), so the same stack
// gives the same answer through XZatoma's `wrapLanguageModel` and through the `ai` package's.
import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Middleware,
  type LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { wrapLanguageModel as aiWrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { generateAsStreamMiddleware } from "./generate-as-stream.js";
import { wrapLanguageModel } from "./middleware.js";
import { providerErrorsMiddleware } from "./provider-errors.js";
import { retryMiddleware } from "./retry/index.js";
import { textToolCallsMiddleware } from "./text-tool-calls.js";

const wording = { providerName: "Test", provider: "test", baseUrl: "http://test.invalid" };

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

const CALL: LanguageModelV4CallOptions = {
  prompt: [{ role: "user", content: [{ type: "text", text: "Take a note." }] }],
  tools: [
    {
      type: "function",
      name: "write_note",
      inputSchema: {
        type: "object",
        properties: { title: { type: "string" } },
        required: ["title"],
      },
    },
  ],
};

function answer(text: string): LanguageModelV4StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: text },
    { type: "text-end", id: "t" },
    { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
  ];
}

function streamOf(parts: LanguageModelV4StreamPart[]): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

async function partsOf(model: LanguageModelV4, call = CALL): Promise<LanguageModelV4StreamPart[]> {
  const parts: LanguageModelV4StreamPart[] = [];
  const reader = (await model.doStream(call)).stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    parts.push(value);
  }
}

/** A server that fails once with HTTP 503, then writes a tool call as JSON text. */
function flakyTextCaller() {
  let calls = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      calls += 1;
      if (calls === 1)
        throw new APICallError({
          message: "busy",
          url: "http://test.invalid/chat",
          requestBodyValues: {},
          statusCode: 503,
          responseBody: "{}",
        });
      return { stream: streamOf(answer('{"name": "write_note", "arguments": {"title": "x"}}')) };
    },
  });
}

const stack = (): LanguageModelV4Middleware[] => [
  retryMiddleware({ wording, sleep: async () => undefined, random: () => 0.5 }),
  textToolCallsMiddleware({ requireValidArguments: true }),
  providerErrorsMiddleware(wording),
];

/** Parts without the generated tool call id, which holds the time. */
const comparable = (parts: LanguageModelV4StreamPart[]) =>
  parts.map((part) => (part.type === "tool-call" ? { ...part, toolCallId: "id" } : part));

describe("wrapLanguageModel", () => {
  it("gives the same answer as the AI SDK's wrapLanguageModel for the same stack", async () => {
    const ours = flakyTextCaller();
    const theirs = flakyTextCaller();
    const mine = await partsOf(wrapLanguageModel({ model: ours, middleware: stack() }));
    const sdk = await partsOf(aiWrapLanguageModel({ model: theirs, middleware: stack() }));
    // The 503 was retried and the JSON text became a call of the tool.
    expect(ours.doStreamCalls).toHaveLength(2);
    expect(mine.filter((part) => part.type === "tool-call")).toMatchObject([
      { toolName: "write_note", input: '{"title":"x"}' },
    ]);
    expect(mine.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "tool-calls" } });
    expect(comparable(mine)).toEqual(comparable(sdk));
    expect(theirs.doStreamCalls).toHaveLength(2);
  });

  it("lets the first middleware see a call first, and the last sit next to the model", async () => {
    const seen: string[] = [];
    const tagging = (name: string): LanguageModelV4Middleware => ({
      specificationVersion: "v4",
      transformParams: async ({ params }) => {
        seen.push(name);
        return { ...params, headers: { ...params.headers, [name]: String(seen.length) } };
      },
    });
    const model = new MockLanguageModelV4({
      doStream: async () => ({ stream: streamOf(answer("hello")) }),
    });
    await partsOf(wrapLanguageModel({ model, middleware: [tagging("outer"), tagging("inner")] }));
    expect(seen).toEqual(["outer", "inner"]);
    expect(model.doStreamCalls[0]?.headers).toEqual({ outer: "1", inner: "2" });
  });

  it("streams a whole answer asked for at once, with its errors worded", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: "text", text: "all at once" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: USAGE,
        warnings: [],
      }),
    });
    const wrapped = wrapLanguageModel({
      model,
      middleware: [generateAsStreamMiddleware, providerErrorsMiddleware(wording)],
    });
    const parts = await partsOf(wrapped);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(parts.filter((part) => part.type === "text-delta")).toEqual([
      { type: "text-delta", id: "0", delta: "all at once" },
    ]);
    const failing = wrapLanguageModel({
      model: new MockLanguageModelV4({
        doGenerate: async () => {
          throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
        },
      }),
      middleware: [generateAsStreamMiddleware, providerErrorsMiddleware(wording)],
    });
    await expect(failing.doStream(CALL)).rejects.toMatchObject({
      code: "PROVIDER_UNAVAILABLE",
      message: "Cannot reach Test at http://test.invalid (ECONNREFUSED).",
    });
  });
});
