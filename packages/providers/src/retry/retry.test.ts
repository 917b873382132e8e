import {
  APICallError,
  type LanguageModelV4CallOptions,
  type LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { isXzatomaError, ProviderError } from "@xzatoma/core";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import {
  SCENARIOS,
  startScriptedOllama,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { createOllamaModel } from "../ollama.js";
import {
  backoffDelayMs,
  parseRetryAfterMs,
  redactError,
  REDACTED,
  redactText,
  resolveRetryOptions,
  retryRequest,
  withRetries,
  type RetryOptions,
} from "./index.js";

const wording = {
  providerName: "Test",
  baseUrl: "http://test.invalid",
  unreachableHint: "Start it.",
};

const CALL: LanguageModelV4CallOptions = {
  prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
};

const FINISH: LanguageModelV4StreamPart = {
  type: "finish",
  finishReason: { unified: "stop", raw: "stop" },
  usage: {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  },
};

function fakeTime() {
  let now = 1_700_000_000_000;
  const sleeps: number[] = [];
  const retry: RetryOptions = {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    random: () => 0.5,
  };
  return { retry, sleeps };
}

function http(status: number, headers: Record<string, string> = {}) {
  return new APICallError({
    message: `HTTP ${status}`,
    url: "http://test.invalid/chat",
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    responseBody: "{}",
  });
}

function connectionReset() {
  return new TypeError("terminated", {
    cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
  });
}

/** A stream that sends `parts`, then fails with `error` (or ends). */
function stream(parts: LanguageModelV4StreamPart[], error?: unknown) {
  const queue = [...parts];
  return new ReadableStream<LanguageModelV4StreamPart>({
    pull(controller) {
      const part = queue.shift();
      if (part) controller.enqueue(part);
      else if (error) controller.error(error);
      else controller.close();
    },
  });
}

async function drain(readable: ReadableStream<LanguageModelV4StreamPart>) {
  const parts: LanguageModelV4StreamPart[] = [];
  const reader = readable.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { parts };
      parts.push(value);
    }
  } catch (error) {
    return { parts, error };
  }
}

const text = (delta: string): LanguageModelV4StreamPart[] => [
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta },
  { type: "text-end", id: "t" },
];

describe("retry policy", () => {
  it("reads Retry-After as seconds, as an HTTP date, and retry-after-ms", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfterMs({ "retry-after": "3" }, now)).toBe(3000);
    expect(parseRetryAfterMs({ "Retry-After": "Thu, 01 Jan 2026 00:00:05 GMT" }, now)).toBe(5000);
    expect(parseRetryAfterMs({ "retry-after": "Thu, 01 Jan 2025 00:00:05 GMT" }, now)).toBe(0);
    expect(parseRetryAfterMs(new Headers({ "retry-after-ms": "250" }), now)).toBe(250);
    expect(parseRetryAfterMs({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });

  it("backs off exponentially with jitter, capped", () => {
    const options = { initialDelayMs: 1000, maxDelayMs: 3000 };
    expect(backoffDelayMs(1, { ...options, random: () => 0 })).toBe(500);
    expect(backoffDelayMs(1, { ...options, random: () => 0.999999 })).toBe(1000);
    expect(backoffDelayMs(2, { ...options, random: () => 0 })).toBe(1000);
    expect(backoffDelayMs(5, { ...options, random: () => 0 })).toBe(1500);
    expect(() => resolveRetryOptions({ maxAttempts: 0 })).toThrow(RangeError);
    expect(resolveRetryOptions().maxAttempts).toBe(3);
  });
});

describe("withRetries", () => {
  it("retries a 429 thrown by doStream, honouring Retry-After", async () => {
    const time = fakeTime();
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        calls += 1;
        if (calls === 1) throw http(429, { "retry-after": "4" });
        return { stream: stream([...text("ok"), FINISH]) };
      },
    });
    const retried = withRetries(model, { ...time.retry, wording });
    const { parts } = await drain((await retried.doStream(CALL)).stream);
    expect(parts.map((part) => part.type)).toEqual([
      "text-start",
      "text-delta",
      "text-end",
      "finish",
    ]);
    expect(time.sleeps).toEqual([4000]);
  });

  it("stops at once when the server asks for a longer wait than allowed", async () => {
    const time = fakeTime();
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw http(429, { "retry-after": "3600" });
      },
    });
    const retried = withRetries(model, { ...time.retry, wording });
    const error = await Promise.resolve(retried.doStream(CALL)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "PROVIDER_ERROR" });
    expect((error as Error).message).toBe(
      "Test answered with an error (HTTP 429): HTTP 429 It asked to retry after 3600 s, longer than the 60 s XZatoma waits.",
    );
    expect(time.sleeps).toEqual([]);
  });

  it("retries a stream that breaks before content, not one that breaks after", async () => {
    const time = fakeTime();
    const attempts = [
      () => stream([{ type: "stream-start", warnings: [] }], connectionReset()),
      () => stream([{ type: "stream-start", warnings: [] }, ...text("a")], connectionReset()),
    ];
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => ({ stream: attempts[calls++]!() }),
    });
    const retried = withRetries(model, { ...time.retry, wording });
    const { parts, error } = await drain((await retried.doStream(CALL)).stream);
    expect(model.doStreamCalls).toHaveLength(2);
    expect(parts.filter((part) => part.type === "text-delta")).toHaveLength(1);
    expect(isXzatomaError(error)).toBe(true);
    expect((error as Error).message).toBe(
      "The connection to Test broke in the middle of the answer (ECONNRESET); the answer is incomplete.",
    );
  });

  it("does not retry what a retry cannot fix, nor an aborted request", async () => {
    const time = fakeTime();
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw http(400);
      },
    });
    const retried = withRetries(model, { ...time.retry, wording });
    await expect(retried.doStream(CALL)).rejects.toMatchObject({ code: "PROVIDER_ERROR" });
    expect(model.doStreamCalls).toHaveLength(1);
    const controller = new AbortController();
    const abortable = withRetries(
      new MockLanguageModelV4({
        doStream: async () => {
          controller.abort();
          throw Object.assign(new Error("aborted"), { name: "AbortError" });
        },
      }),
      { ...time.retry, wording },
    );
    const error = await Promise.resolve(
      abortable.doStream({ ...CALL, abortSignal: controller.signal }),
    ).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe("AbortError");
    expect(time.sleeps).toEqual([]);
  });

  it("times out a silent model and an idle stream", async () => {
    const silent = withRetries(
      new MockLanguageModelV4({ doStream: () => new Promise(() => undefined) }),
      { wording, responseTimeoutMs: 30, maxAttempts: 1 },
    );
    await expect(silent.doStream(CALL)).rejects.toMatchObject({
      code: "PROVIDER_TIMEOUT",
      message: "Test at http://test.invalid did not answer within 30 ms.",
    });
    const idle = withRetries(
      new MockLanguageModelV4({
        doStream: async () => ({
          stream: new ReadableStream<LanguageModelV4StreamPart>({
            start(controller) {
              for (const part of text("a")) controller.enqueue(part);
            },
          }),
        }),
      }),
      { wording, idleTimeoutMs: 30 },
    );
    const { parts, error } = await drain((await idle.doStream(CALL)).stream);
    expect(parts).toHaveLength(3);
    expect(error).toMatchObject({ code: "PROVIDER_TIMEOUT" });
  });

  it("retries doGenerate and plain requests too", async () => {
    const time = fakeTime();
    let calls = 0;
    const value = await retryRequest(
      async () => {
        calls += 1;
        if (calls < 3) throw http(502);
        return "done";
      },
      { ...time.retry, wording },
    );
    expect(value).toBe("done");
    expect(time.sleeps).toEqual([375, 750]);
    const error = await retryRequest(
      async () => {
        throw connectionReset();
      },
      { ...time.retry, wording },
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
    expect((error as Error).message).toBe(
      "Cannot reach Test at http://test.invalid (ECONNRESET). Start it. Gave up after 3 attempts.",
    );
  });
});

describe("withRetries around the Ollama model", () => {
  let server: ScriptedOllama | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("retries a 503 from Ollama and then answers (createOllamaModel retries by itself)", async () => {
    const time = fakeTime();
    server = await startScriptedOllama({
      scenario: (request, index) =>
        index === 0 ? { error: "server busy", status: 503 } : SCENARIOS["echo"]!(request, index),
    });
    const model = createOllamaModel({ host: server.url, retry: time.retry });
    const { parts } = await drain((await model.doStream(CALL)).stream);
    const answer = parts.map((part) => (part.type === "text-delta" ? part.delta : "")).join("");
    expect(answer).toBe("You said: hi");
    expect(time.sleeps).toEqual([375]);
  });
});

describe("redaction", () => {
  const secret = "ghu_SECRETSECRETSECRET0123456789";

  it("redacts named secrets and credential shapes", () => {
    expect(redactText(`token ${secret} failed`, [secret])).toBe("token [REDACTED] failed");
    expect(redactText("Authorization: Bearer abc.def", [])).toBe(
      "Authorization: Bearer [REDACTED]",
    );
    expect(redactText("key sk-abcdefghijklmnopqrstuv!", [])).toBe("key [REDACTED]!");
    expect(redactText('{"error": "bad", "api_key": "k-123"}', [])).toBe(
      '{"error": "bad", "api_key": "[REDACTED]"}',
    );
    expect(redactText("short", ["short"])).toBe("short");
    expect(REDACTED).toBe("[REDACTED]");
  });

  it("redacts a named secret of any format, also URL-encoded or JSON-escaped", () => {
    const opaque = 'opaque "session" value+1';
    const text = `GET /x?t=${encodeURIComponent(opaque)} body=${JSON.stringify({ t: opaque })} raw=${opaque}`;
    const redacted = redactText(text, [opaque]);
    expect(redacted).not.toContain("session");
    expect(redacted).toBe('GET /x?t=[REDACTED] body={"t":"[REDACTED]"} raw=[REDACTED]');
  });

  it("copies an error chain without the secret, keeping classes and codes", () => {
    const api = http(401);
    Object.assign(api, { responseBody: `{"message":"bad ${secret}"}` });
    const error = new ProviderError(`failed with ${secret}`, { cause: api });
    const clean = redactError(error, [secret]) as ProviderError;
    expect(clean).toBeInstanceOf(ProviderError);
    expect(clean.code).toBe("PROVIDER_ERROR");
    expect(clean.message).toBe("failed with [REDACTED]");
    expect(APICallError.isInstance(clean.cause)).toBe(true);
    expect((clean.cause as APICallError).statusCode).toBe(401);
    expect(JSON.stringify([clean.stack, clean.cause])).not.toContain("SECRET");
    expect((clean.cause as APICallError).responseBody).toContain("[REDACTED]");
    const untouched = new ProviderError("nothing secret");
    expect(redactError(untouched, [secret])).toBe(untouched);
  });

  it("redacts credentials a provider echoes back even when they were not named", () => {
    const echoed = `sk-proj-${"Ab3".repeat(20)}`;
    const error = new ProviderError(`401: Incorrect API key provided: ${echoed}`);
    const clean = redactError(error, []) as ProviderError;
    expect(clean.message).toBe("401: Incorrect API key provided: [REDACTED]");
    expect(clean.stack).not.toContain(echoed);
  });
});
