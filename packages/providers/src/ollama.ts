import type { LanguageModelV4, LanguageModelV4Middleware } from "@ai-sdk/provider";
import { ProviderError } from "@xzatoma/core";
import { withBearerKeyClient } from "./bearer-fetch.js";
import { createNodeHttpClient, fetchHttpClient } from "./http/http-client.js";
import { createOllamaChatModel } from "./ollama-chat-model.js";
import { inspectWith, type OllamaModelInfo } from "./ollama-model-info.js";
import { wrapLanguageModel } from "./middleware.js";
import { retryMiddleware, type RetryOptions } from "./retry/index.js";
import { textToolCallsMiddleware } from "./text-tool-calls.js";
import { resolveOllamaHost } from "./ollama-host.js";
import {
  providerErrorsMiddleware,
  type ExplainedProviderError,
  type ProviderErrorWording,
} from "./provider-errors.js";

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
  /**
   * The context window to ask for (`num_ctx`), capped at the model's trained length from
   * `/api/show`. Ollama's own default of a few thousand tokens silently truncates prompts
   * and breaks tool calling. Default 32 768.
   */
  readonly contextWindow?: number;
  /** Told what `/api/show` reported, once per model. */
  readonly onModelInfo?: (info: OllamaModelInfo) => void;
  /**
   * Asks `/api/show` about the model, when the caller already does (a provider that plans
   * the context window with the same answer). Default: this model asks once itself.
   */
  readonly inspect?: () => Promise<OllamaModelInfo | undefined>;
  /** Retries, backoff and timeouts of requests; see {@link RetryOptions}. */
  readonly retry?: RetryOptions;
  /**
   * The API key of a server that wants one (Ollama's cloud, a proxy in front of Ollama),
   * sent as `Authorization: Bearer`. Default: none.
   */
  readonly apiKey?: string;
  /** Looks the key up (the OS keyring) when the server answers 401 and no key was given. */
  readonly lookUpKey?: () => Promise<string | undefined>;
  /** Sends the requests through this fetch. Default: Node's `http`/`https`, without `fetch`. */
  readonly fetch?: typeof globalThis.fetch;
}

/** Models that call tools well on Ollama, named when a model cannot. */
export const OLLAMA_TOOL_MODELS = ["llama3.2", "qwen2.5", "mistral-nemo"];

function explainOllamaError(model: string) {
  return (message: string): ExplainedProviderError | string | undefined => {
    if (/does not support tools/i.test(message)) {
      return `The Ollama model '${model}' cannot call tools, which XZatoma needs. Choose one that can, such as ${OLLAMA_TOOL_MODELS.join(", ")}.`;
    }
    if (/not found/i.test(message) && message.includes(model.split(":")[0] ?? model)) {
      return {
        code: "MODEL_NOT_FOUND",
        message: `Ollama has no model '${model}'. Pull it with 'ollama pull ${model}', or choose another.`,
        fields: { model },
      };
    }
    return undefined;
  };
}

/** How Ollama failures are worded, for the model at `host`. */
export function ollamaWording(host: string, model: string): ProviderErrorWording {
  return {
    providerName: "Ollama",
    provider: "ollama",
    baseUrl: host,
    explain: explainOllamaError(model),
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
  const client = withBearerKeyClient(
    options.fetch ? fetchHttpClient(options.fetch) : createNodeHttpClient(),
    { apiKey: options.apiKey, ...(options.lookUpKey ? { lookUpKey: options.lookUpKey } : {}) },
  );
  const chat = createOllamaChatModel({
    host,
    model,
    client,
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const wording = ollamaWording(host, model);
  const wanted = options.contextWindow ?? 32_768;
  let inspected: Promise<OllamaModelInfo | undefined> | undefined;
  const inspect = () =>
    (inspected ??= (options.inspect?.() ?? inspectWith(client, host, model)).then((info) => {
      if (info) options.onModelInfo?.(info);
      return info;
    }));
  // The first middleware sees a call first: the model's own checks and num_ctx, then the
  // retries around every attempt, then text tool calls and error wording next to the server.
  return wrapLanguageModel({
    model: chat,
    middleware: [
      ollamaDefaultsMiddleware({ model, host, wanted, inspect }),
      retryMiddleware({ ...options.retry, wording }),
      textToolCallsMiddleware(),
      providerErrorsMiddleware(wording),
    ],
  });
}

/**
 * Middleware of what a streamed Ollama request needs before it is sent: a model that cannot
 * call tools is refused when tools are offered (Ollama would answer with an error, or
 * ignore them), and `num_ctx` is the wanted window capped at the model's trained length,
 * unless the call sets its own.
 */
function ollamaDefaultsMiddleware(settings: {
  readonly model: string;
  readonly host: string;
  readonly wanted: number;
  readonly inspect: () => Promise<OllamaModelInfo | undefined>;
}): LanguageModelV4Middleware {
  const { model, host, wanted, inspect } = settings;
  return {
    specificationVersion: "v4",
    async wrapStream({ model: below, params }) {
      const info = await inspect();
      if (info && !info.supportsTools && (params.tools?.length ?? 0) > 0) {
        throw new ProviderError(
          `The Ollama model '${model}' cannot call tools, which XZatoma needs. Choose one that can, such as ${OLLAMA_TOOL_MODELS.join(", ")}.`,
          { fields: { provider: "ollama", model, url: host } },
        );
      }
      const numCtx = Math.min(wanted, info?.contextLength ?? wanted);
      const ollama = (params.providerOptions?.["ollama"] ?? {}) as Record<string, unknown>;
      const ollamaOptions = (ollama["options"] ?? {}) as Record<string, unknown>;
      return below.doStream({
        ...params,
        providerOptions: {
          ...params.providerOptions,
          ollama: { ...ollama, options: { num_ctx: numCtx, ...ollamaOptions } },
        },
      });
    },
  };
}
