// createProvider against the scripted servers, which speak the real wire formats on
// 127.0.0.1: each configuration key is shown to change what goes over the wire.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { Agent, defineTool, toolSuccess } from "@xzatoma/core";
import { startScriptedCopilot, type ScriptedCopilot } from "@xzatoma/scripted-servers/copilot";
import {
  SCENARIOS as OLLAMA_SCENARIOS,
  startScriptedOllama,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import {
  SCENARIOS,
  startScriptedOpenAI,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createCredentialStore,
  createProvider,
  DEFAULT_LOCAL_MODEL_FILE,
  disposeLocalModels,
  type KeyringBackend,
  type ProviderOptions,
  type RetryOptions,
} from "./index.js";
import { providerConfigSchema } from "./config.js";

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const dataDir = mkdtempSync(path.join(tmpdir(), "xz-provider-"));
// Disposing waits for llama.cpp's threads, which a loaded machine may take long to schedule.
afterAll(async () => {
  // A loaded CI machine has been seen to keep llama.cpp's dispose waiting past two minutes;
  // the test process ends right after and frees the model either way, so cleanup waits at
  // most a minute (recorded as an open question on disposal under load).
  await Promise.race([
    disposeLocalModels(),
    new Promise((resolve) => setTimeout(resolve, 60_000).unref()),
  ]);
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

/** Retries that do not wait. */
const noWait: RetryOptions = { sleep: async () => {}, random: () => 0.5 };

function options(extra: Partial<ProviderOptions> = {}): ProviderOptions {
  return { env: {}, maxContextTokens: 100_000, dataDir, retry: noWait, ...extra };
}

async function ollama(scenario = OLLAMA_SCENARIOS["echo"]!): Promise<ScriptedOllama> {
  const server = await startScriptedOllama({ scenario });
  servers.push(server);
  return server;
}

async function openai(
  setup: Parameters<typeof startScriptedOpenAI>[0] = { scenario: SCENARIOS["echo"]! },
): Promise<ScriptedOpenAI> {
  const server = await startScriptedOpenAI(setup);
  servers.push(server);
  return server;
}

async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Streams one user turn and returns its text, or the failure. */
async function ask(
  model: LanguageModelV4,
  text = "hello",
): Promise<{ text: string; error?: unknown }> {
  let answer = "";
  try {
    const { stream } = await model.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text }] }],
    });
    for await (const part of stream as AsyncIterable<LanguageModelV4StreamPart>) {
      if (part.type === "text-delta") answer += part.delta;
      if (part.type === "error") return { text: answer, error: part.error };
    }
  } catch (error) {
    return { text: answer, error };
  }
  return { text: answer };
}

/** A keyring that holds `entries` and records which accounts were read. */
function fakeKeyring(entries: Record<string, string> = {}) {
  const reads: string[] = [];
  const backend: KeyringBackend = {
    getPassword: async (account) => {
      reads.push(account);
      return entries[account];
    },
    setPassword: async () => {},
    deletePassword: async () => false,
  };
  return { backend, reads };
}

describe("the provider configuration", () => {
  it("gives every default from nothing, and refuses unknown keys and bad values with the key path", () => {
    expect(providerConfigSchema.parse({})).toEqual({
      type: "ollama",
      ollama: {
        host: "http://localhost:11434",
        model: "llama3.2:latest",
        request_timeout_seconds: 600,
      },
      openai: {
        base_url: "https://api.openai.com/v1",
        model: "gpt-4o-mini",
        request_timeout_seconds: 600,
        enable_streaming: true,
      },
      copilot: { model: "gpt-5-mini" },
      local: {},
    });
    const paths = (value: unknown) =>
      providerConfigSchema.safeParse(value).error?.issues.map((issue) => issue.path.join("."));
    expect(paths({ ollama: { host: "" } })).toEqual(["ollama.host"]);
    expect(paths({ ollama: { host: "localhost:11434" } })).toBeUndefined();
    expect(paths({ openai: { base_url: "https://user:pw@example.com/v1" } })).toEqual([
      "openai.base_url",
    ]);
    expect(paths({ openai: { request_timeout_seconds: 0 } })).toEqual([
      "openai.request_timeout_seconds",
    ]);
    expect(paths({ type: "claude" })).toEqual(["type"]);
    expect(paths({ openai: { api_key: "sk-1" } })).toEqual(["openai"]);
  });
});

describe("the Ollama provider", () => {
  it("lists the server's models with their parameter sizes, and describes one", async () => {
    const server = await ollama();
    const provider = createProvider(
      providerConfigSchema.parse({ ollama: { host: server.url } }),
      options({ maxContextTokens: 50_000 }),
    );
    expect(provider).toMatchObject({ name: "ollama", defaultModel: "llama3.2:latest" });
    expect(await provider.listModels()).toEqual([
      { id: "llama3.2:latest", contextWindow: null, parameterSize: "3.2B" },
    ]);
    expect(await provider.modelInfo("llama3.2")).toEqual({
      provider: "ollama",
      model: "llama3.2",
      contextWindow: 131072,
      maxOutputTokens: null,
      toolCalls: true,
      vision: false,
    });
    await expect(provider.checkModel("llama3.2:latest")).resolves.toBeUndefined();
    // The conversation is planned within the smaller of the model's window and max_tokens.
    expect(provider.contextWindow("llama3.2")).toBe(50_000);
  });

  it("says which models there are when asked about one it does not have", async () => {
    const server = await ollama();
    const provider = createProvider(
      providerConfigSchema.parse({ ollama: { host: server.url } }),
      options(),
    );
    for (const attempt of [provider.modelInfo("ghost:7b"), provider.checkModel("ghost:7b")]) {
      await expect(attempt).rejects.toMatchObject({
        code: "MODEL_NOT_FOUND",
        message: `Ollama at ${server.url} has no model 'ghost:7b'. It has llama3.2:latest.`,
        fields: { provider: "ollama", model: "ghost:7b", available: ["llama3.2:latest"] },
      });
    }
  });

  it("reports a server that is down as PROVIDER_UNAVAILABLE with the URL, never as a fetch TypeError", async () => {
    const url = `http://127.0.0.1:${await unusedPort()}`;
    const provider = createProvider(
      providerConfigSchema.parse({ ollama: { host: url } }),
      options(),
    );
    for (const attempt of [provider.listModels(), provider.modelInfo("llama3.2")]) {
      const error = await attempt.catch((caught: unknown) => caught);
      expect(error).not.toBeInstanceOf(TypeError);
      expect(error).toMatchObject({
        code: "PROVIDER_UNAVAILABLE",
        message: `Cannot reach Ollama at ${url} (ECONNREFUSED). Gave up after 3 attempts.`,
        fields: { provider: "ollama", url, reason: "ECONNREFUSED" },
      });
    }
    const { error } = await ask(provider.languageModel("llama3.2"));
    expect(error).toMatchObject({
      code: "PROVIDER_UNAVAILABLE",
      fields: { provider: "ollama", url },
    });
  });

  it(
    "reports a host name that does not resolve as PROVIDER_UNAVAILABLE",
    { timeout: 60_000 },
    async () => {
      const url = "http://no-such-host.invalid:11434";
      const provider = createProvider(
        providerConfigSchema.parse({ ollama: { host: url } }),
        options({ retry: { ...noWait, maxAttempts: 1 } }),
      );
      await expect(provider.listModels()).rejects.toMatchObject({
        code: "PROVIDER_UNAVAILABLE",
        fields: {
          provider: "ollama",
          url,
          reason: expect.stringMatching(/^(ENOTFOUND|EAI_AGAIN)$/),
        },
      });
    },
  );

  it("takes OLLAMA_HOST, a bare host:port too, when the configuration keeps the default host", async () => {
    const server = await ollama();
    const hostPort = server.url.replace(/^http:\/\//, "");
    const fromEnv = createProvider(
      providerConfigSchema.parse({}),
      options({ env: { OLLAMA_HOST: hostPort } }),
    );
    expect((await fromEnv.listModels()).map((model) => model.id)).toEqual(["llama3.2:latest"]);
    // A host the configuration names wins.
    const down = `http://127.0.0.1:${await unusedPort()}`;
    const configured = createProvider(
      providerConfigSchema.parse({ ollama: { host: down } }),
      options({ env: { OLLAMA_HOST: hostPort }, retry: { ...noWait, maxAttempts: 1 } }),
    );
    await expect(configured.listModels()).rejects.toMatchObject({ fields: { url: down } });
  });

  it("chats with the configured model and learns its window from the server", async () => {
    const server = await ollama();
    const provider = createProvider(
      providerConfigSchema.parse({ ollama: { host: server.url, model: "llama3.2:3b" } }),
      options({ maxContextTokens: 500_000 }),
    );
    const result = await new Agent({ model: provider.languageModel(provider.defaultModel) }).run(
      "hello there",
    );
    expect(result).toMatchObject({ stopReason: "completed", text: "You said: hello there" });
    expect(server.requests[0]).toMatchObject({
      model: "llama3.2:3b",
      options: { num_ctx: 131072 },
    });
    expect(provider.contextWindow("llama3.2:3b")).toBe(131072);
  });

  it("ends a request the server does not answer within request_timeout_seconds with PROVIDER_TIMEOUT", async () => {
    const server = await ollama(() => ({ content: "too late", delayMs: 60_000 }));
    const provider = createProvider(
      providerConfigSchema.parse({ ollama: { host: server.url, request_timeout_seconds: 1 } }),
      options({ retry: { ...noWait, maxAttempts: 1 } }),
    );
    const { error } = await ask(provider.languageModel("llama3.2"));
    expect(error).toMatchObject({
      code: "PROVIDER_TIMEOUT",
      message: `Ollama at ${server.url} did not answer within 1 s.`,
      fields: { provider: "ollama", url: server.url, timeoutSeconds: 1 },
    });
  });
});

describe("the OpenAI provider", () => {
  it("sends organization_id as the OpenAI-Organization header, with chat and listing", async () => {
    const server = await openai({ scenario: SCENARIOS["echo"]!, models: ["m-1", "m-2"] });
    const provider = createProvider(
      providerConfigSchema.parse({
        type: "openai",
        openai: { base_url: server.url, model: "m-1", organization_id: "org-acme" },
      }),
      options(),
    );
    expect((await ask(provider.languageModel("m-1"))).text).toBe("You said: hello");
    expect(await provider.listModels()).toEqual([
      { id: "m-1", contextWindow: null, parameterSize: null },
      { id: "m-2", contextWindow: null, parameterSize: null },
    ]);
    expect(server.requests.map((request) => request.headers["openai-organization"])).toEqual([
      "org-acme",
      "org-acme",
    ]);
    const without = createProvider(
      providerConfigSchema.parse({ type: "openai", openai: { base_url: server.url } }),
      options(),
    );
    await ask(without.languageModel("m-1"));
    expect(server.requests.at(-1)?.headers["openai-organization"]).toBeUndefined();
  });

  it("asks for whole answers when enable_streaming is false, and the agent still gets them", async () => {
    const server = await openai({ scenario: SCENARIOS["weather"]! });
    const config = (enable_streaming: boolean) =>
      providerConfigSchema.parse({
        type: "openai",
        openai: { base_url: server.url, model: "m", enable_streaming },
      });
    const tools = [
      defineTool({
        name: "get_weather",
        description: "Weather in a city.",
        inputSchema: z.object({ city: z.string(), unit: z.string() }),
        access: "read",
        execute: async ({ city }) => toolSuccess(`Sunny in ${city}`),
      }),
    ];
    const provider = createProvider(config(false), options());
    const result = await new Agent({ model: provider.languageModel("m"), tools }).run("Weather?");
    expect(result).toMatchObject({
      stopReason: "completed",
      text: "The forecast: Sunny in Paris",
      toolCalls: 1,
    });
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    // Whole answers: no `stream: true` in either request, and no `stream_options`.
    expect(server.chatRequests).toHaveLength(2);
    expect(server.chatRequests.map((request) => request.stream ?? false)).toEqual([false, false]);
    expect(server.chatRequests[0]?.stream_options).toBeUndefined();
    const streaming = createProvider(config(true), options());
    await ask(streaming.languageModel("m"));
    expect(server.chatRequests.at(-1)?.stream).toBe(true);
  });

  it("ends a request that gets no answer within request_timeout_seconds with PROVIDER_TIMEOUT", async () => {
    const server = await openai({
      scenario: () => ({ content: "never", fault: { kind: "stall", afterChunks: 0 } }),
    });
    const provider = createProvider(
      providerConfigSchema.parse({
        type: "openai",
        openai: { base_url: server.url, request_timeout_seconds: 1 },
      }),
      options({ retry: { ...noWait, maxAttempts: 1 } }),
    );
    const { error } = await ask(provider.languageModel("m"));
    expect(error).toMatchObject({
      code: "PROVIDER_TIMEOUT",
      message: `OpenAI-compatible server at ${server.url} did not answer within 1 s.`,
      fields: { provider: "openai", url: server.url, timeoutSeconds: 1 },
    });
  });

  it("sends OPENAI_API_KEY and honours OPENAI_BASE_URL over the default base URL", async () => {
    const server = await openai({ scenario: SCENARIOS["echo"]!, apiKey: "sk-from-env-0123456789" });
    const provider = createProvider(
      providerConfigSchema.parse({ type: "openai" }),
      options({ env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-from-env-0123456789" } }),
    );
    expect((await ask(provider.languageModel("gpt-4o-mini"))).text).toBe("You said: hello");
    expect(server.requests[0]?.headers["authorization"]).toBe("Bearer sk-from-env-0123456789");
  });

  it("reads the keyring only when the server asks for a key", async () => {
    const keyed = await openai({
      scenario: SCENARIOS["echo"]!,
      apiKey: "sk-from-keyring-0123456789",
    });
    const keyring = fakeKeyring({ openai: "sk-from-keyring-0123456789" });
    const credentials = createCredentialStore({ env: {}, keyringBackend: keyring.backend });
    const provider = createProvider(
      providerConfigSchema.parse({ type: "openai", openai: { base_url: keyed.url } }),
      options({ credentials }),
    );
    expect((await ask(provider.languageModel("m"))).text).toBe("You said: hello");
    expect(keyed.requests.map((request) => request.status)).toEqual([401, 200]);
    expect(keyring.reads).toEqual(["openai"]);

    const open = await openai();
    const quiet = fakeKeyring();
    const keyless = createProvider(
      providerConfigSchema.parse({ type: "openai", openai: { base_url: open.url } }),
      options({ credentials: createCredentialStore({ env: {}, keyringBackend: quiet.backend }) }),
    );
    expect((await ask(keyless.languageModel("m"))).text).toBe("You said: hello");
    expect(quiet.reads).toEqual([]);
  });

  it("says which models there are when asked about one the server does not list", async () => {
    const server = await openai({ scenario: SCENARIOS["echo"]!, models: ["qwen2.5-7b"] });
    const provider = createProvider(
      providerConfigSchema.parse({ type: "openai", openai: { base_url: server.url } }),
      options(),
    );
    expect(await provider.modelInfo("qwen2.5-7b")).toEqual({
      provider: "openai",
      model: "qwen2.5-7b",
      contextWindow: null,
      maxOutputTokens: null,
      toolCalls: null,
      vision: null,
    });
    await expect(provider.checkModel("gpt-9")).rejects.toMatchObject({
      code: "MODEL_NOT_FOUND",
      message: `The server at ${server.url} has no model 'gpt-9'. It has qwen2.5-7b.`,
      fields: { provider: "openai", model: "gpt-9", available: ["qwen2.5-7b"] },
    });
  });

  it("reports a server that is down as PROVIDER_UNAVAILABLE with the URL", async () => {
    const url = `http://127.0.0.1:${await unusedPort()}/v1`;
    const provider = createProvider(
      providerConfigSchema.parse({ type: "openai", openai: { base_url: url } }),
      options(),
    );
    await expect(provider.listModels()).rejects.toMatchObject({
      code: "PROVIDER_UNAVAILABLE",
      fields: { provider: "openai", url },
    });
  });
});

describe("the Copilot provider", () => {
  let scripted: ScriptedCopilot;
  const start = async () => {
    scripted = await startScriptedCopilot({ scenario: SCENARIOS["echo"]! });
    servers.push(scripted);
    return createProvider(
      providerConfigSchema.parse({
        type: "copilot",
        copilot: { model: "gpt-4.1", api_base: scripted.urls.apiBaseUrl },
      }),
      options({
        env: { GITHUB_TOKEN: "ghu_scriptedGithubToken0123456789abcd" },
        copilotTokenUrl: scripted.urls.tokenUrl,
      }),
    );
  };

  it("signs in with GITHUB_TOKEN, chats, lists the usable models and describes one", async () => {
    const provider = await start();
    expect((await ask(provider.languageModel(provider.defaultModel))).text).toBe("You said: hello");
    const models = await provider.listModels();
    expect(models).toContainEqual({
      id: "claude-sonnet-4",
      contextWindow: 216000,
      parameterSize: null,
    });
    expect(models.map((model) => model.id)).not.toContain("text-embedding-3-small");
    expect(await provider.modelInfo("claude-sonnet-4")).toMatchObject({
      provider: "copilot",
      model: "claude-sonnet-4",
      contextWindow: 216000,
      toolCalls: true,
    });
    expect(provider.contextWindow("claude-sonnet-4")).toBe(100_000);
    await expect(provider.checkModel("gpt-9")).rejects.toMatchObject({
      code: "MODEL_NOT_FOUND",
      fields: {
        provider: "copilot",
        model: "gpt-9",
        available: expect.arrayContaining(["gpt-4.1"]),
      },
    });
    // Listed, but not for chat.
    await expect(provider.checkModel("text-embedding-3-small")).rejects.toMatchObject({
      code: "MODEL_NOT_FOUND",
    });
  });
});

describe("the local provider", () => {
  const modelsDir = path.join(dataDir, "models");

  it("looks for the embedded model in <data dir>/models and names the path and the command that installs it when it is missing", () => {
    const empty = path.join(dataDir, "empty-data");
    const provider = createProvider(
      providerConfigSchema.parse({ type: "local" }),
      options({ dataDir: empty }),
    );
    const expected = path.join(empty, "models", DEFAULT_LOCAL_MODEL_FILE);
    expect(provider.defaultModel).toBe(expected);
    expect(() => provider.languageModel(provider.defaultModel)).toThrow(
      expect.objectContaining({
        code: "PROVIDER_UNAVAILABLE",
        message: `No model file at ${expected}. provider.local.model_path is not set, so the local provider runs the embedded model qwen2.5-coder-1.5b-instruct-q4_k_m.gguf from the data directory's models folder. Download and install it (1.1 GB, once) from a checkout of XZatoma with 'bash tools/models/fetch-model.sh qwen2.5-coder-1.5b --install ${path.join(empty, "models")}' (bash tools/start.sh does it too), or point provider.local.model_path or --model at another GGUF file.`,
        fields: expect.objectContaining({ provider: "local", path: expected, configured: false }),
      }),
    );
    const configured = path.join(dataDir, "elsewhere", "mine.gguf");
    const named = createProvider(
      providerConfigSchema.parse({ type: "local", local: { model_path: configured } }),
      options({ dataDir: empty }),
    );
    expect(named.defaultModel).toBe(configured);
    expect(() => named.languageModel(configured)).toThrow(`No model file at ${configured}.`);
  });

  it("checks model names against the working directory and <data dir>/models", async () => {
    mkdirSync(modelsDir, { recursive: true });
    const fake = path.join(modelsDir, "tiny.gguf");
    writeFileSync(fake, Buffer.concat([Buffer.from("GGUF"), Buffer.alloc(60)]));
    const provider = createProvider(providerConfigSchema.parse({ type: "local" }), options());
    await expect(provider.checkModel("tiny.gguf")).resolves.toBeUndefined();
    expect(await provider.listModels()).toContainEqual({
      id: fake,
      contextWindow: 4096,
      parameterSize: null,
    });
    await expect(provider.modelInfo("nope.gguf")).rejects.toMatchObject({
      code: "MODEL_NOT_FOUND",
      message: `No local model file 'nope.gguf': looked at ${path.resolve("nope.gguf")} and ${path.join(modelsDir, "nope.gguf")}.`,
      fields: { provider: "local", model: "nope.gguf" },
    });
  });

  it(
    "runs the embedded model that setup put in <data dir>/models, without any path configured",
    { timeout: 120_000 },
    async () => {
      // The default embedded model (Qwen2.5-Coder 1.5B, 1.1 GB), which tools/test.sh
      // downloads as the setup does: the one test of the providers that loads it.
      const cached = path.resolve(
        import.meta.dirname,
        "../../../.cache/models",
        DEFAULT_LOCAL_MODEL_FILE,
      );
      expect(
        existsSync(cached),
        `${cached} is missing: bash tools/models/fetch-model.sh qwen2.5-coder-1.5b`,
      ).toBe(true);
      mkdirSync(modelsDir, { recursive: true });
      symlinkSync(cached, path.join(modelsDir, DEFAULT_LOCAL_MODEL_FILE));
      // One thread, as configured: spinning llama.cpp threads crawl on a loaded machine.
      const provider = createProvider(
        providerConfigSchema.parse({ type: "local", local: { threads: 1 } }),
        options({ maxContextTokens: 2000 }),
      );
      expect(await provider.modelInfo(provider.defaultModel)).toEqual({
        provider: "local",
        model: provider.defaultModel,
        contextWindow: 4096,
        maxOutputTokens: null,
        toolCalls: true,
        vision: false,
      });
      expect(provider.contextWindow(provider.defaultModel)).toBe(2000);
      const result = await provider.languageModel(provider.defaultModel).doGenerate({
        prompt: [{ role: "user", content: [{ type: "text", text: "Say hi." }] }],
        maxOutputTokens: 8,
      });
      expect(result.usage.outputTokens.total).toBeGreaterThan(0);
    },
  );
});

describe("failures before any answer", () => {
  it("reports a port fetch refuses to use as PROVIDER_UNAVAILABLE too", async () => {
    // Port 9 (discard) is on fetch's list of bad ports: it fails without connecting. The
    // OpenAI providers send with fetch; Ollama's use Node's http, which has no such list.
    const baseUrl = "http://127.0.0.1:9/v1";
    const provider = createProvider(
      providerConfigSchema.parse({ type: "openai", openai: { base_url: baseUrl } }),
      options({ env: { OPENAI_API_KEY: "sk-test" } }),
    );
    await expect(provider.listModels()).rejects.toMatchObject({
      code: "PROVIDER_UNAVAILABLE",
      message: expect.stringMatching(/ at http:\/\/127\.0\.0\.1:9\/v1 \(bad port\)\./),
      fields: { provider: "openai", url: baseUrl, reason: "bad port" },
    });
  });

  it("reports a server that cannot be reached as PROVIDER_UNAVAILABLE when a model is asked (run, chat), naming the URL", async () => {
    // The AI SDK turns fetch's refusal into an APICallError "Cannot connect to API: bad port"
    // with no HTTP status; Ollama's client gives Node's ECONNREFUSED. Nothing answered, so
    // neither is PROVIDER_ERROR.
    const host = `http://127.0.0.1:${await unusedPort()}`;
    const ollamaProvider = createProvider(
      providerConfigSchema.parse({ ollama: { host } }),
      options({ retry: { ...noWait, maxAttempts: 1 } }),
    );
    const baseUrl = "http://127.0.0.1:9/v1";
    const openaiProvider = createProvider(
      providerConfigSchema.parse({ type: "openai", openai: { base_url: baseUrl } }),
      options({ retry: { ...noWait, maxAttempts: 1 }, env: { OPENAI_API_KEY: "sk-test" } }),
    );
    for (const [provider, id, url, name, reason] of [
      [ollamaProvider, "ollama", host, "Ollama", "ECONNREFUSED"],
      [openaiProvider, "openai", baseUrl, "OpenAI", "bad port"],
    ] as const) {
      const { error } = await ask(provider.languageModel(provider.defaultModel));
      expect(error).toMatchObject({
        code: "PROVIDER_UNAVAILABLE",
        message: expect.stringMatching(
          new RegExp(`^Cannot reach ${name}.* at ${url} \\(${reason}\\)\\.`),
        ),
        fields: { provider: id, url, reason },
      });
      await expect(
        provider.languageModel(provider.defaultModel).doGenerate({
          prompt: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
        }),
      ).rejects.toMatchObject({ code: "PROVIDER_UNAVAILABLE", fields: { url } });
    }
  });
});
