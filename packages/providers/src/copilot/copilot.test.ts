import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { Agent, defineTool, toolSuccess, type AgentEvent } from "@xzatoma/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  COPILOT_MODELS,
  SCENARIOS,
  startScriptedCopilot,
  withFaults,
  type ScriptedCopilot,
  type ScriptedCopilotOptions,
} from "@xzatoma/scripted-servers/copilot";
import type { RetryOptions } from "../retry/index.js";
import {
  CopilotAuthError,
  createCopilotClient,
  createCopilotModel,
  initiatorOf,
  listCopilotModels,
  normalizeEndpoint,
  parseCopilotModels,
  selectCopilotEndpoint,
  startDeviceFlow,
  type CopilotClientOptions,
} from "./index.js";

const GITHUB_TOKEN = "ghu_scriptedGithubToken0123456789abcd";

let server: ScriptedCopilot | undefined;
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
  return {
    retry,
    sleeps,
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

async function start(options: Partial<ScriptedCopilotOptions> = {}): Promise<ScriptedCopilot> {
  server = await startScriptedCopilot({ scenario: SCENARIOS["weather"]!, ...options });
  return server;
}

function clientOptions(
  scripted: ScriptedCopilot,
  time: ReturnType<typeof fakeTime>,
  extra: Partial<CopilotClientOptions> = {},
): CopilotClientOptions {
  return {
    getGithubToken: async () => GITHUB_TOKEN,
    tokenUrl: scripted.urls.tokenUrl,
    env: {},
    now: time.now,
    retry: time.retry,
    ...extra,
  };
}

function api(scripted: ScriptedCopilot, path: string) {
  return scripted.requests.filter((request) => request.path === path);
}

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

describe("Copilot endpoints and models", () => {
  it("compares endpoints without the leading slash and picks one per model", () => {
    expect(normalizeEndpoint("/chat/completions")).toBe("chat/completions");
    expect(normalizeEndpoint("responses/")).toBe("responses");
    expect(selectCopilotEndpoint(undefined)).toBe("chat");
    expect(selectCopilotEndpoint(["/chat/completions"])).toBe("chat");
    expect(selectCopilotEndpoint(["chat/completions"])).toBe("chat");
    expect(selectCopilotEndpoint(["/responses"])).toBe("responses");
    expect(selectCopilotEndpoint(["/chat/completions", "/responses"])).toBe("responses");
    expect(selectCopilotEndpoint(["/v1/messages"])).toBeUndefined();
  });

  it("parses the recorded /models listing with capabilities and limits", () => {
    const models = parseCopilotModels({ data: COPILOT_MODELS });
    expect(parseCopilotModels(COPILOT_MODELS)).toEqual(models);
    expect(models.filter((model) => model.id === "gpt-5.3-codex")).toHaveLength(1);
    expect(models.find((model) => model.id === "claude-sonnet-4")).toMatchObject({
      name: "Claude Sonnet 4",
      vendor: "Anthropic",
      type: "chat",
      policyState: "enabled",
      supportedEndpoints: ["/chat/completions"],
      endpoint: "chat",
      capabilities: {
        contextWindow: 216000,
        maxOutputTokens: 16000,
        maxPromptTokens: 128000,
        toolCalls: true,
        streaming: true,
        vision: true,
        parallelToolCalls: true,
      },
    });
    expect(models.find((model) => model.id === "gpt-5.1-codex")?.endpoint).toBe("responses");
    expect(models.find((model) => model.id === "grok-code-fast-1")?.capabilities).toMatchObject({
      vision: false,
      toolCalls: true,
    });
    expect(models.find((model) => model.id === "text-embedding-ada-002")).toMatchObject({
      type: "embeddings",
      capabilities: { contextWindow: null, toolCalls: false },
    });
  });

  it("tells user turns from agent turns", () => {
    const user = { role: "user" as const, content: [{ type: "text" as const, text: "hi" }] };
    expect(initiatorOf([{ role: "system", content: "s" }, user])).toBe("user");
    expect(
      initiatorOf([
        user,
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "1",
              toolName: "t",
              output: { type: "text", value: "x" },
            },
          ],
        },
      ]),
    ).toBe("agent");
  });
});

describe("GitHub device flow", () => {
  it("polls through authorization_pending and slow_down (+5 s) to a token", async () => {
    const scripted = await start({
      deviceFlow: ["authorization_pending", "slow_down", "authorization_pending"],
    });
    const time = fakeTime();
    const flow = await startDeviceFlow({
      clientId: "Iv1.test-client",
      deviceCodeUrl: scripted.urls.deviceCodeUrl,
      accessTokenUrl: scripted.urls.accessTokenUrl,
      sleep: time.retry.sleep!,
      now: time.now,
    });
    expect(flow).toMatchObject({
      userCode: "WDJB-MJHT",
      verificationUri: "https://github.com/login/device",
      intervalMs: 5000,
    });
    const token = await flow.poll();
    expect(token).toEqual({ accessToken: GITHUB_TOKEN, tokenType: "bearer", scope: "read:user" });
    expect(time.sleeps).toEqual([5000, 5000, 10000, 10000]);
    expect(flow.intervalMs).toBe(10000);
    expect(api(scripted, "/login/device/code")[0]).toMatchObject({
      method: "POST",
      headers: { accept: "application/json" },
      body: { client_id: "Iv1.test-client", scope: "read:user" },
    });
    expect(api(scripted, "/login/oauth/access_token")).toHaveLength(4);
    expect(api(scripted, "/login/oauth/access_token")[0]!.body).toEqual({
      client_id: "Iv1.test-client",
      device_code: "dc_scripted_0123456789",
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
    });
  });

  it.each([
    ["expired_token", "expired"],
    ["access_denied", "denied"],
  ] as const)("fails clearly on %s", async (answer, reason) => {
    const scripted = await start({ deviceFlow: ["authorization_pending", answer] });
    const time = fakeTime();
    const flow = await startDeviceFlow({
      deviceCodeUrl: scripted.urls.deviceCodeUrl,
      accessTokenUrl: scripted.urls.accessTokenUrl,
      sleep: time.retry.sleep!,
      now: time.now,
    });
    const error = await flow.poll().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CopilotAuthError);
    expect(error).toMatchObject({ code: "PROVIDER_AUTH", reason });
  });
});

describe("Copilot models against the scripted server", () => {
  it("runs an agent on /chat/completions with the token exchange, headers and x-initiator", async () => {
    const scripted = await start();
    const time = fakeTime();
    const client = createCopilotClient(clientOptions(scripted, time));
    const events: AgentEvent[] = [];
    const agent = new Agent({ model: client.model("claude-sonnet-4"), tools: [weatherTool] });
    const result = await agent.run("Weather in Paris?", { onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({
      stopReason: "completed",
      text: "The forecast: Sunny and 21 celsius in Paris",
      toolCalls: 1,
    });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(events.find((e) => e.type === "tool-call-requested")).toMatchObject({
      input: { city: "Paris", unit: "celsius" },
    });

    const [exchange] = api(scripted, "/copilot_internal/v2/token");
    expect(exchange!.headers["authorization"]).toBe(`token ${GITHUB_TOKEN}`);
    expect(api(scripted, "/copilot_internal/v2/token")).toHaveLength(1);
    expect(api(scripted, "/models")).toHaveLength(1);
    const chats = api(scripted, "/chat/completions");
    expect(chats).toHaveLength(2);
    expect(api(scripted, "/responses")).toHaveLength(0);
    for (const chat of chats) {
      expect(chat.headers).toMatchObject({
        authorization: `Bearer ${scripted.issuedTokens[0]}`,
        "copilot-integration-id": "vscode-chat",
        "editor-version": "vscode/1.99.3",
        "editor-plugin-version": "copilot-chat/0.26.7",
        "openai-intent": "conversation-edits",
      });
      expect(chat.headers["user-agent"]).toMatch(/^xzatoma\/0\.1\.0/);
      expect(chat.status).toBe(200);
    }
    expect(chats.map((chat) => chat.headers["x-initiator"])).toEqual(["user", "agent"]);
    const second = chats[1]!.body as { messages: { role: string; tool_calls?: unknown[] }[] };
    expect(second.messages.find((m) => m.role === "assistant")?.tool_calls).toHaveLength(1);
    expect(chats[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("routes a /responses-only model to /responses", async () => {
    const scripted = await start();
    const time = fakeTime();
    const model = createCopilotModel({ ...clientOptions(scripted, time), model: "gpt-5.1-codex" });
    const result = await new Agent({ model, tools: [weatherTool] }).run("Weather in Paris?");
    expect(result).toMatchObject({
      stopReason: "completed",
      text: "The forecast: Sunny and 21 celsius in Paris",
      toolCalls: 1,
    });
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    const calls = api(scripted, "/responses");
    expect(calls).toHaveLength(2);
    expect(api(scripted, "/chat/completions")).toHaveLength(0);
    expect(calls.map((call) => call.headers["x-initiator"])).toEqual(["user", "agent"]);
    expect(calls[0]!.body).toMatchObject({ model: "gpt-5.1-codex", stream: true });
    const input = (calls[1]!.body as { input: { type?: string }[] }).input;
    expect(input.map((item) => item.type)).toEqual(
      expect.arrayContaining(["function_call", "function_call_output"]),
    );
  });

  it("lists the usable models with capabilities", async () => {
    const scripted = await start();
    const time = fakeTime();
    const models = await listCopilotModels(clientOptions(scripted, time));
    const ids = models.map((model) => model.id);
    expect(ids).toContain("claude-sonnet-4");
    expect(ids).toContain("gpt-5.1-codex");
    expect(ids).not.toContain("text-embedding-3-small");
    expect(new Set(ids).size).toBe(ids.length);
    expect(models.every((model) => model.type === "chat")).toBe(true);
    const all = await listCopilotModels({ ...clientOptions(scripted, time), all: true });
    expect(all.map((model) => model.id)).toContain("text-embedding-3-small");
    expect(api(scripted, "/models")[0]!.headers["authorization"]).toBe(
      `Bearer ${scripted.issuedTokens[0]}`,
    );
  });

  it("refreshes a token that expires mid-session before the next request", async () => {
    const time = fakeTime();
    const scripted = await start({
      now: time.now,
      tokenLifetimeSeconds: 120, // a short expires_at
      refreshInSeconds: 1000,
    });
    const sleepyTool = defineTool({
      ...weatherTool,
      execute: async (input, context) => {
        time.advance(130_000); // the tool runs long: the Copilot token expires meanwhile
        return weatherTool.execute(input, context);
      },
    });
    const client = createCopilotClient(clientOptions(scripted, time));
    const result = await new Agent({
      model: client.model("claude-sonnet-4"),
      tools: [sleepyTool],
    }).run("Weather?");
    expect(result.stopReason).toBe("completed");
    expect(scripted.issuedTokens).toHaveLength(2);
    const chats = api(scripted, "/chat/completions");
    expect(chats.map((chat) => chat.headers["authorization"])).toEqual([
      `Bearer ${scripted.issuedTokens[0]}`,
      `Bearer ${scripted.issuedTokens[1]}`,
    ]);
    expect(scripted.requests.every((request) => request.status !== 401)).toBe(true);
  });

  it("replaces a token the API rejects once, then carries on", async () => {
    let serverNow = 1_800_000_000_000;
    const time = fakeTime(serverNow);
    const scripted = await start({ now: () => serverNow, scenario: SCENARIOS["echo"]! });
    const model = createCopilotModel({ ...clientOptions(scripted, time), model: "gpt-4.1" });
    expect((await streamOnce(model)).text).toBe("You said: hello");
    serverNow += 3_600_000; // the server's clock says the token has expired; the client's does not
    expect((await streamOnce(model, "again")).text).toBe("You said: again");
    expect(api(scripted, "/chat/completions").map((request) => request.status)).toEqual([
      200, 401, 200,
    ]);
    expect(scripted.issuedTokens).toHaveLength(2);
  });

  it("sends the GitHub token directly when the exchange is disabled", async () => {
    const scripted = await start({ scenario: SCENARIOS["echo"]! });
    const time = fakeTime();
    const model = createCopilotModel({
      ...clientOptions(scripted, time),
      exchange: false,
      apiBaseUrl: scripted.urls.apiBaseUrl,
      endpoint: "chat",
      model: "gpt-4.1",
    });
    const { error } = await streamOnce(model);
    // The scripted API knows only exchanged tokens, so it refuses; what matters is what was sent.
    expect(error).toMatchObject({ code: "PROVIDER_AUTH", fields: { provider: "copilot" } });
    expect(api(scripted, "/copilot_internal/v2/token")).toHaveLength(0);
    expect(api(scripted, "/chat/completions")[0]!.headers["authorization"]).toBe(
      `Bearer ${GITHUB_TOKEN}`,
    );
  });

  it("says clearly when nobody has signed in", async () => {
    const scripted = await start();
    const time = fakeTime();
    const model = createCopilotModel({
      ...clientOptions(scripted, time),
      getGithubToken: async () => undefined,
    });
    const result = await new Agent({ model }).run("hi");
    expect(result.error?.code).toBe("PROVIDER_AUTH");
    expect(result.error?.message).toMatch(/^Not signed in to GitHub Copilot/);
    expect(scripted.requests).toHaveLength(0);
  });
});

describe("Copilot faults", () => {
  it("honours Retry-After on 429, then succeeds", async () => {
    const scripted = await start({
      scenario: withFaults([{ kind: "status", status: 429, retryAfter: "7" }], SCENARIOS["echo"]!),
    });
    const time = fakeTime();
    const model = createCopilotModel({
      ...clientOptions(scripted, time),
      model: "claude-sonnet-4",
    });
    const result = await new Agent({ model }).run("hi");
    expect(result).toMatchObject({ stopReason: "completed", text: "You said: hi" });
    expect(time.sleeps).toEqual([7000]);
  });

  it("retries a 500 and a failed token exchange", async () => {
    const scripted = await start({
      scenario: withFaults([{ kind: "status", status: 500 }], SCENARIOS["echo"]!),
      exchangeStatus: [503],
    });
    const time = fakeTime();
    const model = createCopilotModel({
      ...clientOptions(scripted, time),
      model: "claude-sonnet-4",
    });
    expect((await streamOnce(model)).text).toBe("You said: hello");
    expect(time.sleeps).toEqual([375, 750]);
    expect(api(scripted, "/copilot_internal/v2/token").map((r) => r.status)).toEqual([503, 200]);
    expect(api(scripted, "/chat/completions").map((r) => r.status)).toEqual([500, 200]);
  });

  it("gives up on a model after three 503s, naming status and attempts", async () => {
    const down = { kind: "status", status: 503 } as const;
    const scripted = await start({ scenario: withFaults([down, down, down], SCENARIOS["echo"]!) });
    const time = fakeTime();
    const model = createCopilotModel({ ...clientOptions(scripted, time), model: "gpt-5.1-codex" });
    const result = await new Agent({ model }).run("hi");
    expect(result.error?.code).toBe("PROVIDER_ERROR");
    expect(result.error?.message).toMatch(
      /^GitHub Copilot answered with an error \(HTTP 503\): .+ Gave up after 3 attempts\.$/,
    );
  });

  it("ends with a typed error when the connection resets mid-answer (/responses)", async () => {
    const scripted = await start({
      scenario: () => ({ content: "one two three four", fault: { kind: "reset", afterChunks: 5 } }),
    });
    const time = fakeTime();
    const model = createCopilotModel({ ...clientOptions(scripted, time), model: "gpt-5.1-codex" });
    const { text, error } = await streamOnce(model);
    expect(text).not.toBe("");
    expect(error).toMatchObject({ code: "PROVIDER_ERROR" });
    expect((error as Error).message).toMatch(/broke in the middle of the answer/);
  });

  it("ends with a typed error on a malformed chunk", async () => {
    const scripted = await start({
      scenario: () => ({ content: "one two three", fault: { kind: "malformed", afterChunks: 2 } }),
    });
    const time = fakeTime();
    const model = createCopilotModel({
      ...clientOptions(scripted, time),
      model: "claude-sonnet-4",
    });
    const result = await new Agent({ model }).run("hi");
    expect(result.stopReason).toBe("error");
    expect(result.error?.code).toBe("PROVIDER_ERROR");
  });

  it("times out a stalled stream", async () => {
    const scripted = await start({
      scenario: () => ({ content: "one two three four", fault: { kind: "stall", afterChunks: 3 } }),
    });
    const time = fakeTime();
    const model = createCopilotModel({
      ...clientOptions(scripted, time),
      model: "claude-sonnet-4",
      retry: { ...time.retry, idleTimeoutMs: 150 },
    });
    const result = await new Agent({ model }).run("hi");
    expect(result.error?.code).toBe("PROVIDER_TIMEOUT");
  });
});

describe("Copilot credentials stay out of errors", () => {
  const SECRET = "ghu_SECRETSECRETSECRET0123456789abcdef";

  function captureConsole(): unknown[] {
    const logged: unknown[] = [];
    for (const method of ["log", "warn", "error", "info", "debug"] as const)
      vi.spyOn(console, method).mockImplementation((...args) => void logged.push(...args));
    return logged;
  }

  it("when GitHub rejects the token and echoes it", async () => {
    const scripted = await start({ echoCredentials: true }); // expects another GitHub token
    const time = fakeTime();
    const logged = captureConsole();
    const model = createCopilotModel({
      ...clientOptions(scripted, time),
      getGithubToken: async () => SECRET,
    });
    const { error } = await streamOnce(model);
    expect(error).toBeInstanceOf(CopilotAuthError);
    expect(error).toMatchObject({ code: "PROVIDER_AUTH", reason: "rejected" });
    const events: AgentEvent[] = [];
    const result = await new Agent({ model }).run("hi", { onEvent: (e) => events.push(e) });
    expect(api(scripted, "/copilot_internal/v2/token")[0]!.body).toBeUndefined();
    expect(api(scripted, "/copilot_internal/v2/token")[0]!.headers["authorization"]).toBe(
      `token ${SECRET}`,
    );
    const captured = [
      ...errorTexts(error),
      JSON.stringify(result),
      JSON.stringify(events),
      ...logged.map(String),
    ].join("\n");
    expect(captured).not.toContain(SECRET);
    expect(captured).not.toContain("SECRETSECRET");
  });

  it("when the Copilot API rejects the Copilot token and echoes it", async () => {
    const scripted = await start({
      githubToken: SECRET,
      echoCredentials: true,
      tokenLifetimeSeconds: -60, // every token the server issues is already expired there
      refreshInSeconds: 3000,
    });
    const time = fakeTime(Date.now() + 3_600_000 * 24);
    const logged = captureConsole();
    const options = {
      ...clientOptions(scripted, time),
      getGithubToken: async () => SECRET,
      now: () => Date.now() - 3_600_000, // the client believes the tokens are fresh
    };
    const model = createCopilotModel({ ...options, model: "claude-sonnet-4", endpoint: "chat" });
    const { error } = await streamOnce(model);
    expect(error).toMatchObject({ code: "PROVIDER_AUTH", fields: { provider: "copilot" } });
    expect((error as Error).message).toContain("rejected the token (HTTP 401)");
    const listError = await listCopilotModels(options).catch((caught: unknown) => caught);
    expect(listError).toMatchObject({ code: "PROVIDER_AUTH" });
    const body = api(scripted, "/chat/completions")[0];
    expect(body!.headers["authorization"]).toBe(`Bearer ${scripted.issuedTokens[0]}`);
    const captured = [...errorTexts(error), ...errorTexts(listError), ...logged.map(String)].join(
      "\n",
    );
    expect(scripted.issuedTokens.length).toBeGreaterThan(1);
    for (const token of [SECRET, ...scripted.issuedTokens]) expect(captured).not.toContain(token);
    expect(captured).not.toContain("tid=scripted");
  });
});
