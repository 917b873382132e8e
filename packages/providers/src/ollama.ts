import type { LanguageModelV4 } from "@ai-sdk/provider";
import { createOllama as createOllamaProvider } from "ollama-ai-provider-v2";
import { createNdjsonErrorFetch } from "./ndjson-error-fetch.js";
import { resolveOllamaHost } from "./ollama-host.js";
import { withProviderErrors } from "./provider-errors.js";

/** The model used when none is named. */
export const DEFAULT_OLLAMA_MODEL = "llama3.2:latest";

/** Options of {@link createOllamaModel}. */
export interface OllamaModelOptions {
  /** The model name as Ollama knows it. Default `llama3.2:latest`. */
  readonly model?: string;
  /** Base URL of the server. Default: `OLLAMA_HOST`, then `http://localhost:11434`. */
  readonly host?: string;
  /** Environment to read `OLLAMA_HOST` from. Default `process.env`, read when the factory is called. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Extra HTTP headers for every request. */
  readonly headers?: Record<string, string>;
}

function explainOllamaError(model: string) {
  return (message: string): string | undefined => {
    if (/does not support tools/i.test(message)) {
      return `The Ollama model '${model}' cannot call tools, which XZatoma needs. Choose one that can, such as llama3.2, qwen2.5 or mistral-nemo.`;
    }
    if (/not found/i.test(message) && message.includes(model.split(":")[0] ?? model)) {
      return `Ollama has no model '${model}'. Pull it with 'ollama pull ${model}', or choose another with --model.`;
    }
    return undefined;
  };
}

/**
 * Creates an AI SDK language model that talks to Ollama's `/api/chat`.
 *
 * @example
 * const model = createOllamaModel({ model: "qwen2.5:7b", host: "http://127.0.0.1:11434" });
 * const agent = new Agent({ model, tools });
 */
export function createOllamaModel(options: OllamaModelOptions = {}): LanguageModelV4 {
  const host = resolveOllamaHost(options.host, options.env ?? process.env);
  const model = options.model ?? DEFAULT_OLLAMA_MODEL;
  const provider = createOllamaProvider({
    baseURL: `${host}/api`,
    fetch: createNdjsonErrorFetch("Ollama"),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  return withProviderErrors(provider(model), {
    providerName: "Ollama",
    baseUrl: host,
    unreachableHint:
      "Start it with 'ollama serve', or point OLLAMA_HOST (or --host) at a running server.",
    explain: explainOllamaError(model),
  });
}
