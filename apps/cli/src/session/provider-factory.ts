import path from "node:path";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import {
  createCopilotClient,
  inspectOllamaModel,
  createCredentialStore,
  createLocalModel,
  createOllamaModel,
  createOpenAIModel,
  listOpenAIModels,
  type CredentialStore,
} from "@xzatoma/providers";
import type { RuntimeConfig } from "../config/index.js";

/** The model side of a session: which provider, which model, and how to make it. */
export interface ModelSource {
  readonly provider: string;
  readonly model: string;
  createModel(model: string): LanguageModelV4;
  listModels(): Promise<string>;
  contextWindow(model: string): number;
  /** What is known about one model: context window, tool support, and more where the provider says. */
  info(model: string): Promise<ModelDetails>;
}

/** `xzatoma models info`: null means the provider does not say. */
export interface ModelDetails {
  readonly provider: string;
  readonly model: string;
  readonly contextWindow: number | null;
  readonly maxOutputTokens: number | null;
  readonly toolCalls: boolean | null;
  readonly vision: boolean | null;
}

const unknown = (provider: string, model: string): ModelDetails => ({
  provider,
  model,
  contextWindow: null,
  maxOutputTokens: null,
  toolCalls: null,
  vision: null,
});

/** Where the embedded model lives unless configured: `<data dir>/models/`. */
export function defaultLocalModelPath(dataDir: string): string {
  return path.join(dataDir, "models", "SmolLM2-135M-Instruct.Q4_1.gguf");
}

interface OllamaTags {
  models?: { name: string; details?: { parameter_size?: string } }[];
}

function ollamaSource(config: RuntimeConfig): ModelSource {
  const host = config.provider.ollama.host;
  const windows = new Map<string, number>();
  return {
    provider: "ollama",
    model: config.provider.ollama.model,
    createModel: (model) =>
      createOllamaModel({
        model,
        host,
        contextWindow: config.agent.conversation.max_tokens,
        onModelInfo: (info) => {
          if (info.contextLength)
            windows.set(model, Math.min(info.contextLength, config.agent.conversation.max_tokens));
        },
      }),
    async listModels() {
      const response = await fetch(`${host.replace(/\/+$/, "")}/api/tags`, {
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) return `Ollama answered ${response.status} for /api/tags.`;
      const tags = (await response.json()) as OllamaTags;
      const names = (tags.models ?? []).map(
        (model) =>
          `${model.name}${model.details?.parameter_size ? ` (${model.details.parameter_size})` : ""}`,
      );
      return names.length === 0
        ? "Ollama has no models; pull one with 'ollama pull llama3.2'."
        : names.join("\n");
    },
    async info(model) {
      const shown = await inspectOllamaModel(host.replace(/\/+$/, ""), model);
      if (!shown) return unknown("ollama", model);
      return {
        ...unknown("ollama", model),
        contextWindow: shown.contextLength ?? null,
        toolCalls: shown.supportsTools,
      };
    },
    contextWindow: (model) => windows.get(model) ?? config.agent.conversation.max_tokens,
  };
}

async function openaiSource(
  config: RuntimeConfig,
  credentials: CredentialStore,
): Promise<ModelSource> {
  const apiKey = await credentials.get("openai");
  const baseURL = config.provider.openai.base_url;
  return {
    provider: "openai",
    model: config.provider.openai.model,
    createModel: (model) => createOpenAIModel({ model, baseURL, ...(apiKey ? { apiKey } : {}) }),
    async listModels() {
      const models = await listOpenAIModels({ baseURL, ...(apiKey ? { apiKey } : {}) });
      return models.map((model) => model.id).join("\n") || "The server lists no models.";
    },
    info: async (model) => unknown("openai", model),
    contextWindow: () => config.agent.conversation.max_tokens,
  };
}

function copilotSource(config: RuntimeConfig, credentials: CredentialStore): ModelSource {
  const client = createCopilotClient({
    getGithubToken: () => credentials.get("copilot"),
    ...(config.provider.copilot.api_base ? { apiBaseUrl: config.provider.copilot.api_base } : {}),
  });
  const windows = new Map<string, number>();
  return {
    provider: "copilot",
    model: config.provider.copilot.model,
    createModel: (model) => client.model(model),
    async listModels() {
      const models = await client.listModels();
      for (const model of models) {
        if (model.capabilities.contextWindow)
          windows.set(model.id, model.capabilities.contextWindow);
      }
      return models
        .map(
          (model) =>
            `${model.id}${model.capabilities.contextWindow ? ` (${model.capabilities.contextWindow} tokens)` : ""}`,
        )
        .join("\n");
    },
    async info(model) {
      const found = (await client.listModels({ all: true })).find((entry) => entry.id === model);
      if (!found) return unknown("copilot", model);
      const capabilities = found.capabilities;
      return {
        provider: "copilot",
        model,
        contextWindow: capabilities.contextWindow,
        maxOutputTokens: capabilities.maxOutputTokens,
        toolCalls: capabilities.toolCalls,
        vision: capabilities.vision,
      };
    },
    contextWindow: (model) => windows.get(model) ?? config.agent.conversation.max_tokens,
  };
}

function localSource(config: RuntimeConfig): ModelSource {
  const modelPath =
    config.provider.local.model_path ?? defaultLocalModelPath(config.persistence.data_dir);
  return {
    provider: "local",
    model: modelPath,
    createModel: (model) => createLocalModel({ modelPath: model }),
    listModels: async () => `The local provider runs the GGUF file you name: ${modelPath}`,
    info: async (model) => ({
      ...unknown("local", model),
      contextWindow: 4096,
      toolCalls: true,
      vision: false,
    }),
    contextWindow: () => Math.min(4096, config.agent.conversation.max_tokens),
  };
}

/** The model source the configuration selects. */
export async function createModelSource(
  config: RuntimeConfig,
  options: { warn: (message: string) => void },
): Promise<ModelSource> {
  const credentials = createCredentialStore({ warn: options.warn });
  switch (config.provider.type) {
    case "ollama":
      return ollamaSource(config);
    case "openai":
      return openaiSource(config, credentials);
    case "copilot":
      return copilotSource(config, credentials);
    case "local":
      return localSource(config);
  }
}
