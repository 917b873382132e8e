import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { Agent, defineTool, toolSuccess, type AgentEvent } from "@xzatoma/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  SCENARIOS,
  startScriptedOpenAI,
  withFaults,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import type { RetryOptions } from "../retry/index.js";
import {
  createOpenAIModel,
  DEFAULT_OPENAI_BASE_URL,
  listOpenAIModels,
  resolveOpenAIConnection,
} from "./index.js";

let server: ScriptedOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.restoreAllMocks();
});

const weatherTool = defineTool({
  name: "get_weather",
  description: "Tells the weather in a city.",
  inputSchema: z.object({ city: z.string(), unit: z.enum(["celsius", "fahrenheit"]).optional() }),
  access: "read",
  execute: async ({ city, unit }) => toolSuccess(`Sunny and 21 ${unit ?? "celsius"} in ${city}`),
});

/** A clock and a sleep that only pretend to wait, recording each wait. */
function fakeTime(start = Math.floor(Date.now() / 1000) * 1000) {
  let now = start;
  const sleeps: number[] = [];
  const retry: RetryOptions = {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    random: () => 0.5,
  };
  return { retry, sleeps, now: () => now };
}

/** Streams one user turn through the model directly, returning the text and any failure. */
async function streamOnce(
  model: LanguageModelV4,
  text = "hello",
): Promise<{ text: string; error?: unknown }> {
  let answer = "";
  try {
    const { stream } = await model.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text }] }],
    });
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const part: LanguageModelV4StreamPart = value;
      if (part.type === "text-delta") answer += part.delta;
      if (part.type === "error") return { text: answer, error: part.error };
    }
  } catch (error) {
    return { text: answer, error };
  }
  return { text: answer };
}

/** Every message, stack, body and URL of an error and its causes. */
function errorTexts(error: unknown): string[] {
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 12; depth += 1) {
    const link = current as Record<string, unknown>;
    for (const key of ["message", "stack", "responseBody", "url"]) {
      if (typeof link[key] === "string") texts.push(link[key]);
    }
    if (link["requestBodyValues"] !== undefined)
      texts.push(JSON.stringify(link["requestBodyValues"]));
    current = link["cause"];
  }
  return texts;
}

describe("OpenAI connection settings", () => {
  it("takes the option, then the environment, then OpenAI's default", () => {
    expect(resolveOpenAIConnection({ baseURL: "http://a:1/v1/", env: {} })).toMatchObject({
      baseURL: "http://a:1/v1",
      compatible: true,
      apiKey: undefined,
    });
    expect(
      resolveOpenAIConnection({
        env: { OPENAI_BASE_URL: "http://b:2/v1", OPENAI_API_KEY: "sk-env" },
      }),
    ).toMatchObject({ baseURL: "http://b:2/v1", apiKey: "sk-env", compatible: true });
    expect(
      resolveOpenAIConnection({ apiKey: "sk-option", env: { OPENAI_API_KEY: "sk-env" } }),
    ).toMatchObject({ baseURL: DEFAULT_OPENAI_BASE_URL, apiKey: "sk-option", compatible: false });
    expect(
      resolveOpenAIConnection({ baseURL: "http://proxy/v1", compatible: false, env: {} })
        .compatible,
    ).toBe(false);
  });

  it("refuses OpenAI itself without a key, before sending anything", async () => {
    const model = createOpenAIModel({ model: "gpt-4.1", env: {} });
    const { error } = await streamOnce(model);
    expect(error).toMatchObject({ code: "PROVIDER_AUTH", fields: { provider: "openai" } });
    expect((error as Error).message).toContain("OPENAI_API_KEY");
    expect((error as Error).message).not.toContain("--");
  });
});

describe("OpenAI-compatible model against the scripted server", () => {
  it("runs an agent through a tool call split across chunks to a final answer, with usage", async () => {
    server = await startScriptedOpenAI({ scenario: SCENARIOS["weather"]! });
    const events: AgentEvent[] = [];
    const agent = new Agent({
      model: createOpenAIModel({ model: "qwen2.5-7b", baseURL: server.url, env: {} }),
      tools: [weatherTool],
    });
    const result = await agent.run("Weather in Paris?", { onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({
      stopReason: "completed",
      text: "The forecast: Sunny and 21 celsius in Paris",
      toolCalls: 1,
      turns: 2,
    });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(events.find((e) => e.type === "tool-call-requested")).toMatchObject({
      toolName: "get_weather",
      input: { city: "Paris", unit: "celsius" },
    });
    const [first, second] = server.chatRequests;
    expect(first).toMatchObject({
      model: "qwen2.5-7b",
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(first!.tools?.[0]?.function.name).toBe("get_weather");
    // The arguments arrived in several chunks; the next request carries them reassembled.
    const call = second!.messages.find((message) => message.role === "assistant")?.tool_calls?.[0];
    expect(JSON.parse(call!.function.arguments)).toEqual({ city: "Paris", unit: "celsius" });
    expect(second!.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: call!.id });
    expect(server.requests[0]!.headers["authorization"]).toBeUndefined();
  });

  it("uses @ai-sdk/openai with the key when compatible is false", async () => {
    server = await startScriptedOpenAI({ scenario: SCENARIOS["weather"]!, apiKey: "sk-test-key" });
    const model = createOpenAIModel({
      model: "gpt-4.1",
      baseURL: server.url,
      apiKey: "sk-test-key",
      compatible: false,
    });
    expect(model.provider).toBe("openai.chat");
    const result = await new Agent({ model, tools: [weatherTool] }).run("Weather?");
    expect(result).toMatchObject({ stopReason: "completed", toolCalls: 1 });
    expect(result.usage.totalTokens).toBeGreaterThan(0);
    expect(server.requests[0]!.headers["authorization"]).toBe("Bearer sk-test-key");
  });

  it("uses the Responses API when asked", async () => {
    server = await startScriptedOpenAI({ scenario: SCENARIOS["weather"]!, apiKey: "sk-test-key" });
    const model = createOpenAIModel({
      model: "gpt-4.1",
      baseURL: server.url,
      apiKey: "sk-test-key",
      compatible: false,
      api: "responses",
    });
    const result = await new Agent({ model, tools: [weatherTool] }).run("Weather?");
    expect(result).toMatchObject({
      stopReason: "completed",
      text: "The forecast: Sunny and 21 celsius in Paris",
      toolCalls: 1,
    });
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(server.requests.map((request) => request.path)).toEqual([
      "/v1/responses",
      "/v1/responses",
    ]);
  });

  it("lists models with unknown capabilities marked null", async () => {
    server = await startScriptedOpenAI({
      scenario: SCENARIOS["echo"]!,
      models: ["b-model", "a-model", "text-embedding-3-small"],
    });
    const models = await listOpenAIModels({ baseURL: server.url, env: {} });
    expect(models.map((model) => model.id)).toEqual(["a-model", "b-model"]);
    expect(models[0]).toEqual({
      id: "a-model",
      name: "a-model",
      provider: "openai-compatible",
      ownedBy: "system",
      capabilities: {
        contextWindow: null,
        maxOutputTokens: null,
        maxPromptTokens: null,
        toolCalls: null,
        streaming: null,
        vision: null,
      },
    });
    expect(server.requests[0]).toMatchObject({ method: "GET", path: "/v1/models" });
  });

  it("lists the configured model alone when a keyless server answers /models with 401", async () => {
    server = await startScriptedOpenAI({ scenario: SCENARIOS["echo"]!, apiKey: "sk-needed" });
    const models = await listOpenAIModels({ baseURL: server.url, env: {}, model: "local" });
    expect(models.map((model) => model.id)).toEqual(["local"]);
  });
});

describe("OpenAI-compatible faults", () => {
  it("honours Retry-After in seconds on 429, then succeeds", async () => {
    const time = fakeTime();
    server = await startScriptedOpenAI({
      scenario: withFaults([{ kind: "status", status: 429, retryAfter: "2" }], SCENARIOS["echo"]!),
    });
    const model = createOpenAIModel({
      model: "m",
      baseURL: server.url,
      env: {},
      retry: time.retry,
    });
    const result = await new Agent({ model }).run("hi");
    expect(result).toMatchObject({ stopReason: "completed", text: "You said: hi" });
    expect(time.sleeps).toEqual([2000]);
    expect(server.chatRequests).toHaveLength(2);
  });

  it("honours Retry-After as an HTTP date", async () => {
    const time = fakeTime();
    const retryAfter = new Date(time.now() + 3000).toUTCString();
    server = await startScriptedOpenAI({
      scenario: withFaults([{ kind: "status", status: 429, retryAfter }], SCENARIOS["echo"]!),
    });
    const model = createOpenAIModel({
      model: "m",
      baseURL: server.url,
      env: {},
      retry: time.retry,
    });
    expect((await streamOnce(model)).text).toBe("You said: hello");
    expect(time.sleeps).toEqual([3000]);
  });

  it("backs off after a 500 and succeeds on the next attempt", async () => {
    const time = fakeTime();
    server = await startScriptedOpenAI({
      scenario: withFaults([{ kind: "status", status: 500 }], SCENARIOS["echo"]!),
    });
    const model = createOpenAIModel({
      model: "m",
      baseURL: server.url,
      env: {},
      retry: time.retry,
    });
    const result = await new Agent({ model }).run("hi");
    expect(result.stopReason).toBe("completed");
    expect(time.sleeps).toEqual([375]); // 500 ms with equal jitter at random 0.5
  });

  it("gives up after three attempts with the status and the attempts, conversation intact", async () => {
    const time = fakeTime();
    const failing = { kind: "status", status: 503 } as const;
    server = await startScriptedOpenAI({
      scenario: withFaults([failing, failing, failing], SCENARIOS["echo"]!),
    });
    const agent = new Agent({
      model: createOpenAIModel({ model: "m", baseURL: server.url, env: {}, retry: time.retry }),
    });
    const result = await agent.run("first question");
    expect(result.stopReason).toBe("error");
    expect(result.error?.code).toBe("PROVIDER_ERROR");
    expect(result.error?.message).toMatch(
      /^OpenAI-compatible server answered with an error \(HTTP 503\): .+ Gave up after 3 attempts\.$/,
    );
    expect(time.sleeps).toEqual([375, 750]);
    expect(agent.messages).toEqual([expect.objectContaining({ role: "user" })]);
    const next = await agent.run("second question");
    expect(next).toMatchObject({ stopReason: "completed", text: "You said: second question" });
  });

  it("does not retry a request the server refuses (400)", async () => {
    const time = fakeTime();
    server = await startScriptedOpenAI({
      scenario: () => ({ fault: { kind: "status", status: 400, message: "bad tools" } }),
    });
    const model = createOpenAIModel({
      model: "m",
      baseURL: server.url,
      env: {},
      retry: time.retry,
    });
    const { error } = await streamOnce(model);
    expect(error).toMatchObject({ code: "PROVIDER_ERROR" });
    expect((error as Error).message).toContain("HTTP 400");
    expect(time.sleeps).toEqual([]);
  });

  it("retries a connection reset before any content", async () => {
    const time = fakeTime();
    server = await startScriptedOpenAI({
      scenario: withFaults([{ kind: "reset", afterChunks: 1 }], SCENARIOS["echo"]!),
    });
    const model = createOpenAIModel({
      model: "m",
      baseURL: server.url,
      env: {},
      retry: time.retry,
    });
    expect((await streamOnce(model)).text).toBe("You said: hello");
    expect(server.chatRequests).toHaveLength(2);
  });

  it("ends with a typed error when the connection resets mid-answer", async () => {
    const time = fakeTime();
    server = await startScriptedOpenAI({
      scenario: withFaults([{ kind: "reset", afterChunks: 3 }], SCENARIOS["echo"]!),
    });
    const agent = new Agent({
      model: createOpenAIModel({ model: "m", baseURL: server.url, env: {}, retry: time.retry }),
    });
    const result = await agent.run("hello there");
    expect(result.stopReason).toBe("error");
    expect(result.error?.code).toBe("PROVIDER_ERROR");
    expect(result.error?.message).toMatch(/broke in the middle of the answer/);
    expect(server.chatRequests).toHaveLength(1);
    expect(agent.messages).toHaveLength(1);
  });

  it("ends with a typed error on a malformed JSON chunk", async () => {
    server = await startScriptedOpenAI({
      scenario: () => ({ content: "one two three", fault: { kind: "malformed", afterChunks: 2 } }),
    });
    const model = createOpenAIModel({ model: "m", baseURL: server.url, env: {} });
    const result = await new Agent({ model }).run("hi");
    expect(result.stopReason).toBe("error");
    expect(result.error?.code).toBe("PROVIDER_ERROR");
    expect(result.error?.message).toMatch(/^OpenAI-compatible server failed: /);
  });

  it("times out a stream that stalls mid-answer", async () => {
    server = await startScriptedOpenAI({
      scenario: () => ({ content: "one two three four", fault: { kind: "stall", afterChunks: 3 } }),
    });
    const model = createOpenAIModel({
      model: "m",
      baseURL: server.url,
      env: {},
      retry: { idleTimeoutMs: 150 },
    });
    const result = await new Agent({ model }).run("hi");
    expect(result.stopReason).toBe("error");
    expect(result.error).toMatchObject({
      code: "PROVIDER_TIMEOUT",
      message: "OpenAI-compatible server stopped sending its answer: nothing arrived for 150 ms.",
    });
  });

  it("retries a stream that stalls before any content, then gives up with a timeout", async () => {
    const time = fakeTime();
    server = await startScriptedOpenAI({
      scenario: () => ({ content: "never", fault: { kind: "stall", afterChunks: 1 } }),
    });
    const model = createOpenAIModel({
      model: "m",
      baseURL: server.url,
      env: {},
      retry: { ...time.retry, responseTimeoutMs: 100, maxAttempts: 2 },
    });
    const { error } = await streamOnce(model);
    expect(error).toMatchObject({ code: "PROVIDER_TIMEOUT" });
    expect((error as Error).message).toBe(
      `OpenAI-compatible server at ${server.url} did not answer within 100 ms. Gave up after 2 attempts.`,
    );
    expect(server.chatRequests).toHaveLength(2);
  });

  it("says clearly, after retrying, when nothing listens", async () => {
    const time = fakeTime();
    const probe = await startScriptedOpenAI({ scenario: SCENARIOS["echo"]! });
    const url = probe.url;
    await probe.close();
    const model = createOpenAIModel({ model: "m", baseURL: url, env: {}, retry: time.retry });
    const result = await new Agent({ model }).run("hi");
    expect(result.error?.code).toBe("PROVIDER_UNAVAILABLE");
    expect(result.error?.message).toBe(
      `Cannot reach OpenAI-compatible server at ${url} (ECONNREFUSED). Gave up after 3 attempts.`,
    );
    expect(time.sleeps).toHaveLength(2);
  });

  it("keeps the API key out of errors, even when the server echoes it", async () => {
    const secret = "sk-SECRETSECRETSECRET0123456789";
    server = await startScriptedOpenAI({
      scenario: SCENARIOS["echo"]!,
      apiKey: "sk-the-right-one",
      echoCredentials: true,
    });
    const logged: unknown[] = [];
    for (const method of ["log", "warn", "error", "info", "debug"] as const)
      vi.spyOn(console, method).mockImplementation((...args) => void logged.push(...args));
    const model = createOpenAIModel({ model: "m", baseURL: server.url, apiKey: secret, env: {} });
    const { error } = await streamOnce(model);
    expect(error).toMatchObject({ code: "PROVIDER_AUTH", fields: { provider: "openai" } });
    expect((error as Error).message).toContain("rejected the API key (HTTP 401)");
    const events: AgentEvent[] = [];
    const result = await new Agent({ model }).run("hi", { onEvent: (e) => events.push(e) });
    const captured = [
      ...errorTexts(error),
      JSON.stringify(result),
      JSON.stringify(events),
      ...logged.map(String),
    ].join("\n");
    expect(server.requests[0]!.headers["authorization"]).toBe(`Bearer ${secret}`);
    expect(captured).not.toContain(secret);
    expect(captured).not.toContain("SECRETSECRET");
  });
});
