import type { LanguageModelV4 } from "@ai-sdk/provider";
import { createOllamaModel } from "@xzatoma/providers";
import type { XzatomaConfig } from "../config/index.js";

/** The model side of a session: which provider, which model, and how to make it. */
export interface ModelSource {
  readonly provider: string;
  readonly model: string;
  createModel(model: string): LanguageModelV4;
  listModels(): Promise<string>;
  contextWindow(model: string): number;
}

interface OllamaTags {
  models?: { name: string; size?: number; details?: { parameter_size?: string } }[];
}

function ollamaSource(config: XzatomaConfig): ModelSource {
  const host = config.provider.ollama.host;
  const windows = new Map<string, number>();
  return {
    provider: "ollama",
    model: config.provider.ollama.model,
    createModel: (model) => createOllamaModel({ model, host }),
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
    contextWindow: (model) => windows.get(model) ?? config.agent.conversation.maxTokens,
  };
}

/** The model source the configuration selects. */
export function createModelSource(config: XzatomaConfig): ModelSource {
  switch (config.provider.type) {
    case "ollama":
      return ollamaSource(config);
    default:
      throw new Error(`provider '${config.provider.type}' is not wired yet`);
  }
}
