/**
 * One object per configured provider: its language models, its model listing, what it knows
 * about one model, and the context window to plan a conversation with. Every front end (the
 * CLI's commands, the runtime behind chat and run) asks this object, never a server directly.
 */
import { existsSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { isXzatomaError, XzatomaError } from "@xzatoma/core";
import { withBearerKey, withBearerKeyClient } from "./bearer-fetch.js";
import { createCopilotClient, type CopilotClient } from "./copilot/index.js";
import { createCredentialStore, type CredentialStore } from "./credentials/index.js";
import { lazyModel } from "./lazy-model.js";
import {
  createLocalModel,
  DEFAULT_LOCAL_CONTEXT_SIZE,
  LocalModelUnavailableError,
  missingDefaultLocalModelMessage,
  resolveLocalModelPath,
} from "./local/index.js";
import { checkModelFile } from "./local/runtime.js";
import { wrapLanguageModel } from "./middleware.js";
import { textToolCallsMiddleware } from "./text-tool-calls.js";
import { createOllamaModel } from "./ollama.js";
import { DEFAULT_OLLAMA_HOST, normalizeOllamaHost } from "./ollama-host.js";
import {
  findOllamaTag,
  inspectWith,
  listTagsWith,
  type OllamaModelInfo,
} from "./ollama-model-info.js";
import { createNodeHttpClient } from "./http/http-client.js";
import {
  createOpenAIModel,
  DEFAULT_OPENAI_BASE_URL,
  isOpenAIBaseURL,
  listOpenAIModels,
} from "./openai/index.js";
import type { ProviderConfig } from "./provider-config.js";
import type { ProviderType } from "./provider-types.js";
import type { RetryOptions } from "./retry/index.js";

/** One model of {@link Provider.listModels}. `null`: the provider does not say. */
export interface ModelListing {
  /** The name to pass as the model. */
  readonly id: string;
  /** Tokens of prompt and answer together. */
  readonly contextWindow: number | null;
  /** Parameters, as the provider writes them (`3.2B`). */
  readonly parameterSize: string | null;
}

/** What {@link Provider.modelInfo} knows about one model. `null`: the provider does not say. */
export interface ModelInfo {
  readonly provider: ProviderType;
  readonly model: string;
  readonly contextWindow: number | null;
  readonly maxOutputTokens: number | null;
  readonly toolCalls: boolean | null;
  readonly vision: boolean | null;
}

/** A configured model provider. */
export interface Provider {
  readonly name: ProviderType;
  /** The configured model (for `local`, the path of the GGUF file). */
  readonly defaultModel: string;
  /** A language model; nothing is sent until it is used. Credentials are read on first use. */
  languageModel(model: string): LanguageModelV4;
  /**
   * The models the provider offers. An unreachable server is `PROVIDER_UNAVAILABLE` with
   * `{provider, url}`, never a raw network error.
   */
  listModels(): Promise<ModelListing[]>;
  /**
   * What the provider says about `model`. `MODEL_NOT_FOUND` (fields: `provider`, `model`,
   * `available`) when the provider's listing shows it does not have the model.
   */
  modelInfo(model: string): Promise<ModelInfo>;
  /**
   * Resolves when the provider has `model`; `MODEL_NOT_FOUND` (fields: `provider`, `model`,
   * and `available` when the listing names the models there are) when it does not.
   */
  checkModel(model: string): Promise<void>;
  /**
   * The context window to plan a conversation with: the window the provider will really use
   * for `model` (for Ollama the `num_ctx` it is sent, for the others the model's own window)
   * as far as it is known yet (after {@link resolveContextWindow}, a request or a listing),
   * at most `maxContextTokens`.
   */
  contextWindow(model: string): number;
  /**
   * Asks the provider once per model what {@link contextWindow} needs (Ollama's `/api/show`,
   * the server's model listing) and resolves with the window to plan with. Never rejects:
   * a server that cannot say leaves the window {@link contextWindow} gives without it.
   */
  resolveContextWindow(model: string): Promise<number>;
}

/** Options of {@link createProvider}. */
export interface ProviderOptions {
  /**
   * The environment: credentials (`OPENAI_API_KEY`, `COPILOT_GITHUB_TOKEN`, `GITHUB_TOKEN`,
   * `OLLAMA_API_KEY`), and `OLLAMA_HOST` / `OPENAI_BASE_URL` where the configuration keeps
   * the default host. Default `process.env`.
   */
  readonly env?: NodeJS.ProcessEnv;
  /** Receives warnings (an unreachable keyring). Default: none. */
  readonly warn?: (message: string) => void;
  /** The most tokens a conversation may use (`agent.conversation.max_tokens`). */
  readonly maxContextTokens: number;
  /** The data directory: the local provider's default model lives in its `models/`. */
  readonly dataDir: string;
  /** The credential store. Default: environment variables, then the OS keyring. */
  readonly credentials?: CredentialStore;
  /** Retry and backoff settings (tests); the timeouts come from the configuration. */
  readonly retry?: RetryOptions;
  /** Where Copilot exchanges the GitHub token (a test server). Default GitHub's. */
  readonly copilotTokenUrl?: string;
  /**
   * The workspace the agent works in: the local provider never loads a model file from it
   * (the model can write it, and a GGUF file is parsed by native code and carries a chat
   * template that is run).
   */
  readonly workspace?: string;
}

interface Shared {
  readonly env: NodeJS.ProcessEnv;
  readonly credentials: CredentialStore;
  readonly maxContextTokens: number;
  readonly dataDir: string;
  readonly retry: RetryOptions | undefined;
  readonly copilotTokenUrl: string | undefined;
  readonly workspace: string | undefined;
}

const IDLE_TIMEOUT_MS = 60_000;

/** The retry options of a provider whose requests may take `timeoutSeconds`. */
function retryWithTimeout(shared: Shared, timeoutSeconds: number): RetryOptions {
  const timeoutMs = timeoutSeconds * 1000;
  return {
    ...shared.retry,
    responseTimeoutMs: timeoutMs,
    idleTimeoutMs: Math.min(IDLE_TIMEOUT_MS, timeoutMs),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function modelNotFound(
  provider: ProviderType,
  model: string,
  message: string,
  available?: readonly string[],
): XzatomaError {
  return new XzatomaError("MODEL_NOT_FOUND", message, {
    fields: { provider, model, ...(available ? { available: [...available] } : {}) },
  });
}

function availableText(available: readonly string[]): string {
  if (available.length === 0) return "It lists no models.";
  const shown = available.slice(0, 12).join(", ");
  return `It has ${shown}${available.length > 12 ? `, and ${available.length - 12} more` : ""}.`;
}

/** A listing that failed tells nothing about windows; the request reports the failure. */
const ignore = (): void => undefined;

const capped = (shared: Shared, window: number | null | undefined): number =>
  window ? Math.min(window, shared.maxContextTokens) : shared.maxContextTokens;

function ollamaProvider(config: ProviderConfig["ollama"], shared: Shared): Provider {
  // The configuration's default host gives way to OLLAMA_HOST (`host:port` works too).
  const configured = normalizeOllamaHost(config.host);
  const fromEnv = nonEmpty(shared.env["OLLAMA_HOST"]);
  const host =
    fromEnv && configured === DEFAULT_OLLAMA_HOST ? normalizeOllamaHost(fromEnv) : configured;
  const retry = retryWithTimeout(shared, config.request_timeout_seconds);
  const apiKey = nonEmpty(shared.env["OLLAMA_API_KEY"]);
  const lookUpKey = () => shared.credentials.get("ollama");
  const client = withBearerKeyClient(createNodeHttpClient(), { apiKey, lookUpKey });
  const windows = new Map<string, number>();
  // One /api/show per model, for the window planned and the model's own checks alike.
  const shown = new Map<string, Promise<OllamaModelInfo | undefined>>();
  const show = (model: string) => {
    let asked = shown.get(model);
    if (!asked) {
      asked = inspectWith(client, host, model).then((info) => {
        if (info?.contextLength) windows.set(model, info.contextLength);
        return info;
      });
      shown.set(model, asked);
    }
    return asked;
  };
  // What Ollama is asked for: the configured num_ctx, else the conversation's budget; the
  // model caps both at its trained length.
  const wanted = config.num_ctx ?? shared.maxContextTokens;
  const window = (model: string) =>
    Math.min(wanted, shared.maxContextTokens, windows.get(model) ?? Number.POSITIVE_INFINITY);
  const wording = { providerName: "Ollama", provider: "ollama", baseUrl: host };
  const tags = async () => listTagsWith(client, host, { retry, wording });
  async function find(model: string) {
    const listed = await tags();
    const tag = findOllamaTag(listed, model);
    if (!tag) {
      const available = listed.map((entry) => entry.name);
      throw modelNotFound(
        "ollama",
        model,
        `Ollama at ${host} has no model '${model}'. ${availableText(available)}`,
        available,
      );
    }
    return tag;
  }
  return {
    name: "ollama",
    defaultModel: config.model,
    languageModel: (model) =>
      createOllamaModel({
        model,
        host,
        env: {},
        contextWindow: wanted,
        retry,
        ...(apiKey ? { apiKey } : {}),
        lookUpKey,
        inspect: () => show(model),
      }),
    async listModels() {
      return (await tags()).map((tag) => ({
        id: tag.name,
        contextWindow: null,
        parameterSize: tag.parameterSize ?? null,
      }));
    },
    async modelInfo(model) {
      const tag = await find(model);
      const shown = await inspectWith(client, host, tag.name);
      if (shown?.contextLength) windows.set(model, shown.contextLength);
      return {
        provider: "ollama",
        model,
        contextWindow: shown?.contextLength ?? null,
        maxOutputTokens: null,
        toolCalls: shown ? shown.supportsTools : null,
        vision: shown?.vision ?? null,
      };
    },
    async checkModel(model) {
      await find(model);
    },
    contextWindow: window,
    async resolveContextWindow(model) {
      await show(model);
      return window(model);
    },
  };
}

function openaiProvider(config: ProviderConfig["openai"], shared: Shared): Provider {
  const configured = config.base_url.replace(/\/+$/, "");
  const fromEnv = nonEmpty(shared.env["OPENAI_BASE_URL"]);
  const baseURL = (
    fromEnv && configured === DEFAULT_OPENAI_BASE_URL ? fromEnv : configured
  ).replace(/\/+$/, "");
  const retry = retryWithTimeout(shared, config.request_timeout_seconds);
  const envKey = nonEmpty(shared.env["OPENAI_API_KEY"]);
  const lookUpKey = () => shared.credentials.get("openai");
  // OpenAI itself needs a key with every request; another server is asked only after a 401.
  const needsKey = isOpenAIBaseURL(baseURL);
  let key: Promise<string | undefined> | undefined;
  const apiKey = () =>
    (key ??= envKey !== undefined || !needsKey ? Promise.resolve(envKey) : lookUpKey());
  const connection = async () => {
    const known = await apiKey();
    return {
      baseURL,
      env: {},
      ...(known ? { apiKey: known } : {}),
      ...(config.organization_id ? { organization: config.organization_id } : {}),
      retry,
      fetch: withBearerKey(globalThis.fetch, { apiKey: known, lookUpKey }),
    };
  };
  const windows = new Map<string, number>();
  let listed: Promise<void> | undefined;
  const listing = async (fallbackModel?: string) => {
    const models = await listOpenAIModels({
      ...(await connection()),
      ...(fallbackModel ? { model: fallbackModel } : {}),
    });
    for (const model of models) {
      if (model.capabilities.contextWindow) windows.set(model.id, model.capabilities.contextWindow);
    }
    return models;
  };
  /** The listed model, undefined when the server will not list (401 without a key). */
  async function find(model: string) {
    let models;
    try {
      models = await listing();
    } catch (error) {
      if (isXzatomaError(error) && error.code === "PROVIDER_AUTH" && !(await apiKey()))
        return undefined;
      throw error;
    }
    const found = models.find((entry) => entry.id === model);
    if (!found) {
      const available = models.map((entry) => entry.id);
      throw modelNotFound(
        "openai",
        model,
        `The server at ${baseURL} has no model '${model}'. ${availableText(available)}`,
        available,
      );
    }
    return found;
  }
  return {
    name: "openai",
    defaultModel: config.model,
    languageModel: (model) =>
      lazyModel(needsKey ? "openai.chat" : "openai-compatible.chat", model, async () =>
        createOpenAIModel({
          ...(await connection()),
          model,
          streaming: config.enable_streaming,
        }),
      ),
    async listModels() {
      return (await listing(config.model)).map((model) => ({
        id: model.id,
        contextWindow: model.capabilities.contextWindow,
        parameterSize: null,
      }));
    },
    async modelInfo(model) {
      const found = await find(model);
      return {
        provider: "openai",
        model,
        contextWindow: found?.capabilities.contextWindow ?? null,
        maxOutputTokens: found?.capabilities.maxOutputTokens ?? null,
        toolCalls: found?.capabilities.toolCalls ?? null,
        vision: found?.capabilities.vision ?? null,
      };
    },
    async checkModel(model) {
      await find(model);
    },
    contextWindow: (model) => capped(shared, windows.get(model)),
    async resolveContextWindow(model) {
      if (!windows.has(model)) listed ??= listing().then(ignore, ignore);
      await listed;
      return capped(shared, windows.get(model));
    },
  };
}

function copilotProvider(config: ProviderConfig["copilot"], shared: Shared): Provider {
  let listed: Promise<void> | undefined;
  const client: CopilotClient = createCopilotClient({
    getGithubToken: () => shared.credentials.get("copilot"),
    env: shared.env,
    ...(config.api_base ? { apiBaseUrl: config.api_base } : {}),
    ...(shared.copilotTokenUrl ? { tokenUrl: shared.copilotTokenUrl } : {}),
    ...(shared.retry ? { retry: shared.retry } : {}),
  });
  const windows = new Map<string, number>();
  const remember = <T extends { id: string; capabilities: { contextWindow: number | null } }>(
    models: T[],
  ): T[] => {
    for (const model of models) {
      if (model.capabilities.contextWindow) windows.set(model.id, model.capabilities.contextWindow);
    }
    return models;
  };
  /** The model in the account's listing; `usable`: one it can chat with. */
  async function find(model: string, usable: boolean) {
    const listed = remember(await client.listModels({ all: !usable }));
    const found = listed.find((entry) => entry.id === model);
    if (!found) {
      const available = remember(await client.listModels()).map((entry) => entry.id);
      throw modelNotFound(
        "copilot",
        model,
        `GitHub Copilot has no model '${model}' for this account. ${availableText(available)}`,
        available,
      );
    }
    return found;
  }
  return {
    name: "copilot",
    defaultModel: config.model,
    languageModel: (model) => client.model(model),
    async listModels() {
      return remember(await client.listModels()).map((model) => ({
        id: model.id,
        contextWindow: model.capabilities.contextWindow,
        parameterSize: null,
      }));
    },
    async modelInfo(model) {
      const { capabilities } = await find(model, false);
      return {
        provider: "copilot",
        model,
        contextWindow: capabilities.contextWindow,
        maxOutputTokens: capabilities.maxOutputTokens,
        toolCalls: capabilities.toolCalls,
        vision: capabilities.vision,
      };
    },
    async checkModel(model) {
      await find(model, true);
    },
    contextWindow: (model) => capped(shared, windows.get(model)),
    async resolveContextWindow(model) {
      if (!windows.has(model)) listed ??= client.listModels().then(remember).then(ignore, ignore);
      await listed;
      return capped(shared, windows.get(model));
    },
  };
}

/** Refuses a local model file inside the workspace (its real path, links followed). */
function refuseInWorkspace(file: string, workspace: string | undefined): void {
  if (workspace === undefined) return;
  const real = (target: string) => {
    try {
      return realpathSync(target);
    } catch {
      return path.resolve(target);
    }
  };
  const relative = path.relative(real(workspace), real(file));
  if (relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative)))
    throw new XzatomaError(
      "CONFIG_INVALID",
      `The local model file ${real(file)} is inside the workspace; XZatoma never loads a model from the workspace, whose files the model can write. Keep model files in the data directory's models/ folder or elsewhere outside the project.`,
      { fields: { provider: "local", path: real(file), key: "provider.local.model_path" } },
    );
}

function localProvider(config: ProviderConfig["local"], shared: Shared): Provider {
  const location = resolveLocalModelPath(config.model_path, shared.dataDir);
  const modelsDir = path.join(shared.dataDir, "models");
  /**
   * The file a model name means: the name as a path (absolute, or relative to the working
   * directory), else a file of that name in `<data dir>/models/`.
   */
  const fileOf = (model: string): { path: string; looked: string[] } => {
    const direct = path.resolve(model);
    if (path.isAbsolute(model) || existsSync(direct)) return { path: direct, looked: [direct] };
    const inData = path.join(modelsDir, model);
    return existsSync(inData)
      ? { path: inData, looked: [direct, inData] }
      : { path: direct, looked: [direct, inData] };
  };
  const notFound = (model: string, looked: readonly string[]) =>
    new XzatomaError(
      "MODEL_NOT_FOUND",
      `No local model file '${model}': looked at ${looked.join(" and ")}.`,
      { fields: { provider: "local", model, path: looked[0], looked: [...looked] } },
    );
  async function checkModel(model: string): Promise<void> {
    const file = fileOf(model);
    refuseInWorkspace(file.path, shared.workspace);
    try {
      checkModelFile(file.path);
    } catch (error) {
      if (error instanceof LocalModelUnavailableError && error.reason === "model-missing")
        throw notFound(model, file.looked);
      throw error;
    }
  }
  const files = (): string[] => {
    const found = new Set<string>();
    if (existsSync(location.path)) found.add(location.path);
    try {
      for (const entry of readdirSync(modelsDir, { withFileTypes: true })) {
        if (/\.gguf$/i.test(entry.name) && !entry.isDirectory())
          found.add(path.join(modelsDir, entry.name));
      }
    } catch {
      // No models directory: nothing there.
    }
    return [...found];
  };
  return {
    name: "local",
    defaultModel: location.path,
    languageModel(model) {
      const file = model === location.path ? location.path : fileOf(model).path;
      refuseInWorkspace(file, shared.workspace);
      try {
        // Small models often write the call as JSON text instead of the function-call
        // syntax; such an answer becomes the call when its arguments fit the tool.
        return wrapLanguageModel({
          model: createLocalModel({
            modelPath: file,
            ...(config.threads === undefined ? {} : { threads: config.threads }),
          }),
          middleware: textToolCallsMiddleware({ requireValidArguments: true }),
        });
      } catch (error) {
        if (
          error instanceof LocalModelUnavailableError &&
          error.reason === "model-missing" &&
          file === location.path &&
          !location.configured
        ) {
          throw new LocalModelUnavailableError(
            "model-missing",
            missingDefaultLocalModelMessage(file),
            { cause: error, fields: { path: file, configured: false } },
          );
        }
        throw error;
      }
    },
    listModels: async () =>
      files().map((file) => ({
        id: file,
        contextWindow: DEFAULT_LOCAL_CONTEXT_SIZE,
        parameterSize: null,
      })),
    async modelInfo(model) {
      await checkModel(model);
      return {
        provider: "local",
        model,
        contextWindow: DEFAULT_LOCAL_CONTEXT_SIZE,
        maxOutputTokens: null,
        toolCalls: true,
        vision: false,
      };
    },
    checkModel,
    contextWindow: () => capped(shared, DEFAULT_LOCAL_CONTEXT_SIZE),
    resolveContextWindow: async () => capped(shared, DEFAULT_LOCAL_CONTEXT_SIZE),
  };
}

/**
 * The provider the configuration's `type` selects, with its section's settings: host or
 * base URL, request timeout, organization, streaming, Copilot API base, local model path.
 * Credentials come from the environment first, then the OS keyring.
 *
 * @example
 * // providerConfigSchema from @xzatoma/providers/config
 * const provider = createProvider(providerConfigSchema.parse({ type: "ollama" }), {
 *   maxContextTokens: 100_000,
 *   dataDir: path.join(os.homedir(), ".xzatoma"),
 * });
 * const agent = new Agent({ model: provider.languageModel(provider.defaultModel) });
 */
export function createProvider(config: ProviderConfig, options: ProviderOptions): Provider {
  const env = options.env ?? process.env;
  const shared: Shared = {
    env,
    credentials:
      options.credentials ??
      createCredentialStore({ env, ...(options.warn ? { warn: options.warn } : {}) }),
    maxContextTokens: options.maxContextTokens,
    dataDir: options.dataDir,
    retry: options.retry,
    copilotTokenUrl: options.copilotTokenUrl,
    workspace: options.workspace,
  };
  switch (config.type) {
    case "ollama":
      return ollamaProvider(config.ollama, shared);
    case "openai":
      return openaiProvider(config.openai, shared);
    case "copilot":
      return copilotProvider(config.copilot, shared);
    case "local":
      return localProvider(config.local, shared);
  }
}
