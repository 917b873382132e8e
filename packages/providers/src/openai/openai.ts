import type { LanguageModelV4 } from "@ai-sdk/provider";
import { XzatomaError } from "@xzatoma/core";
import { generateAsStreamMiddleware } from "../generate-as-stream.js";
import { lazyModel } from "../lazy-model.js";
import { wrapLanguageModel } from "../middleware.js";
import { providerErrorsMiddleware, type ProviderErrorWording } from "../provider-errors.js";
import { findApiCallError } from "../retry/failures.js";
import { requestJson } from "../retry/http.js";
import type { RetryOptions } from "../retry/retry-policy.js";
import { retryMiddleware, retryRequest } from "../retry/with-retries.js";
import { UNKNOWN_CAPABILITIES, type ListedModel } from "./model-info.js";

type Fetch = typeof globalThis.fetch;

/** OpenAI's own API. */
export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";

/** Where and how to reach an OpenAI or OpenAI-compatible server. */
export interface OpenAIConnectionOptions {
  /**
   * Base URL including the API version path, e.g. `http://127.0.0.1:8080/v1` for
   * llama.cpp's server. Default: `OPENAI_BASE_URL`, then {@link DEFAULT_OPENAI_BASE_URL}.
   */
  readonly baseURL?: string;
  /** API key, sent as `Authorization: Bearer`. Default: `OPENAI_API_KEY`; none for a compatible server without it. */
  readonly apiKey?: string;
  /** Environment to read `OPENAI_BASE_URL` and `OPENAI_API_KEY` from. Default `process.env`, read when the factory is called. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Use `@ai-sdk/openai-compatible` (plain chat completions, nothing OpenAI-specific)
   * rather than `@ai-sdk/openai`. Default: true exactly when the base URL's host is not
   * `api.openai.com`, so OpenAI itself gets the OpenAI SDK and any other server (llama.cpp,
   * vLLM, LM Studio, a proxy) the compatible one.
   */
  readonly compatible?: boolean;
  /** `OpenAI-Organization` (OpenAI only). */
  readonly organization?: string;
  /** `OpenAI-Project` (OpenAI only). */
  readonly project?: string;
  /** Extra HTTP headers for every request. */
  readonly headers?: Record<string, string>;
  /** Retries, backoff and timeouts; see {@link RetryOptions}. */
  readonly retry?: RetryOptions;
  /** The fetch to use. Default `globalThis.fetch`. */
  readonly fetch?: Fetch;
}

/** Options of {@link createOpenAIModel}. */
export interface OpenAIModelOptions extends OpenAIConnectionOptions {
  /** The model id, e.g. `gpt-4.1` or whatever the compatible server serves. */
  readonly model: string;
  /**
   * The OpenAI API to use (OpenAI only; compatible servers always get chat completions).
   * Default `chat`: `/chat/completions`, which every server speaks and which needs no
   * server-side state. `responses` uses `/responses`.
   */
  readonly api?: "chat" | "responses";
  /**
   * False: every request asks for the whole answer at once (`stream: false`), and
   * `doStream` hands it over as a stream when it has arrived. Default true.
   */
  readonly streaming?: boolean;
}

/** The connection settings after defaults. */
export interface ResolvedOpenAIConnection {
  readonly baseURL: string;
  readonly apiKey: string | undefined;
  readonly compatible: boolean;
  /** How errors name the server: `OpenAI` or `OpenAI-compatible server`. */
  readonly providerName: string;
  /** `openai` or `openai-compatible`. */
  readonly provider: string;
}

/** True when `baseURL` points at OpenAI's own API. */
export function isOpenAIBaseURL(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname === "api.openai.com";
  } catch {
    return false;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/** Applies the defaults: base URL and key from the option, then the environment. */
export function resolveOpenAIConnection(
  options: OpenAIConnectionOptions = {},
): ResolvedOpenAIConnection {
  const env = options.env ?? process.env;
  const baseURL = (
    nonEmpty(options.baseURL) ??
    nonEmpty(env["OPENAI_BASE_URL"]) ??
    DEFAULT_OPENAI_BASE_URL
  ).replace(/\/+$/, "");
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env["OPENAI_API_KEY"]);
  const compatible = options.compatible ?? !isOpenAIBaseURL(baseURL);
  return {
    baseURL,
    apiKey,
    compatible,
    providerName: compatible ? "OpenAI-compatible server" : "OpenAI",
    provider: compatible ? "openai-compatible" : "openai",
  };
}

/** How failures of an OpenAI or compatible server are worded. */
export function openAIWording(
  connection: ResolvedOpenAIConnection,
  model: string,
): ProviderErrorWording {
  const name = connection.providerName;
  return {
    providerName: name,
    provider: "openai",
    baseUrl: connection.baseURL,
    explain: (message, status) => {
      if (status === 401) {
        return {
          code: "PROVIDER_AUTH",
          message: connection.apiKey
            ? `${name} at ${connection.baseURL} rejected the API key (HTTP 401).`
            : `${name} at ${connection.baseURL} requires an API key (HTTP 401); none is set (OPENAI_API_KEY).`,
          fields: { keySet: connection.apiKey !== undefined },
        };
      }
      if (status === 404 && /model/i.test(message)) {
        return {
          code: "MODEL_NOT_FOUND",
          message: `${name} at ${connection.baseURL} has no model '${model}' (HTTP 404).`,
          fields: { model },
        };
      }
      return undefined;
    },
  };
}

function missingKeyModel(connection: ResolvedOpenAIConnection, model: string): LanguageModelV4 {
  const fail = (): never => {
    throw new XzatomaError(
      "PROVIDER_AUTH",
      `OpenAI needs an API key to use '${model}', and none is set (OPENAI_API_KEY). A server other than OpenAI's (OPENAI_BASE_URL) may need none.`,
      { fields: { provider: "openai", url: connection.baseURL, model, keySet: false } },
    );
  };
  return {
    specificationVersion: "v4",
    provider: connection.provider,
    modelId: model,
    supportedUrls: {},
    doGenerate: async () => fail(),
    doStream: async () => fail(),
  };
}

/**
 * Creates an AI SDK language model for OpenAI or any OpenAI-compatible server, with
 * retries, timeouts and errors worded for the user. Nothing is sent until it is used.
 *
 * Which SDK: `@ai-sdk/openai` when the base URL is OpenAI's (`api.openai.com`),
 * `@ai-sdk/openai-compatible` for any other base URL; `compatible` overrides the rule.
 *
 * @example
 * const model = createOpenAIModel({ model: "qwen2.5-7b-instruct", baseURL: "http://127.0.0.1:8080/v1" });
 * const agent = new Agent({ model, tools });
 */
export function createOpenAIModel(options: OpenAIModelOptions): LanguageModelV4 {
  const connection = resolveOpenAIConnection(options);
  const { baseURL, apiKey } = connection;
  const model = options.model;
  if (!connection.compatible && !apiKey) return missingKeyModel(connection, model);
  // The SDK for OpenAI sends the organization and project itself; for other servers (a
  // proxy in front of OpenAI, for one) they are plain headers.
  const headers = {
    ...options.headers,
    ...(connection.compatible && options.organization
      ? { "OpenAI-Organization": options.organization }
      : {}),
    ...(connection.compatible && options.project ? { "OpenAI-Project": options.project } : {}),
  };
  const common = {
    baseURL,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  // The provider name the SDK itself would report.
  const providerName = connection.compatible
    ? `${connection.provider}.chat`
    : `openai.${options.api === "responses" ? "responses" : "chat"}`;
  const inner = lazyModel(providerName, model, async (): Promise<LanguageModelV4> => {
    if (connection.compatible) {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      return createOpenAICompatible({
        name: connection.provider,
        ...common,
        ...(apiKey ? { apiKey } : {}),
        includeUsage: true,
      }).chatModel(model);
    }
    const { createOpenAI } = await import("@ai-sdk/openai");
    const provider = createOpenAI({
      ...common,
      apiKey,
      ...(options.organization ? { organization: options.organization } : {}),
      ...(options.project ? { project: options.project } : {}),
    });
    return options.api === "responses" ? provider.responses(model) : provider.chat(model);
  });
  const wording = openAIWording(connection, model);
  const retries = retryMiddleware({
    ...options.retry,
    wording,
    secrets: () => (apiKey ? [apiKey] : []),
  });
  return wrapLanguageModel({
    model: inner,
    middleware: [
      // Streaming off: the whole answer, retried as one request, handed over as a stream.
      ...(options.streaming === false ? [generateAsStreamMiddleware] : []),
      retries,
      providerErrorsMiddleware(wording),
    ],
  });
}

/** A model of an OpenAI or compatible server. */
export interface OpenAIModelInfo extends ListedModel {
  /** `owned_by`, when the server says. */
  readonly ownedBy?: string;
}

/** Options of {@link listOpenAIModels}. */
export interface ListOpenAIModelsOptions extends OpenAIConnectionOptions {
  /** Keep embedding, speech, image and moderation models too. Default false. */
  readonly includeAll?: boolean;
  /**
   * The configured model: when a server without a key answers `/models` with 401
   * (llama.cpp started with `--api-key` but only for chat), it is listed alone.
   */
  readonly model?: string;
  readonly signal?: AbortSignal;
}

const NOT_CHAT = /embed|tts|whisper|dall-e|moderation|transcribe|rerank|davinci-00|babbage-00/i;

function positiveNumber(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
}

/** Parses a `/models` answer, `{data: [{id, owned_by?, ...}]}`. Exported for tests. */
export function parseOpenAIModels(
  body: unknown,
  provider: string,
  includeAll = false,
): OpenAIModelInfo[] {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) return [];
  const models: OpenAIModelInfo[] = [];
  const seen = new Set<string>();
  for (const entry of data as Record<string, unknown>[]) {
    const id = entry?.["id"];
    if (typeof id !== "string" || seen.has(id)) continue;
    if (!includeAll && NOT_CHAT.test(id)) continue;
    seen.add(id);
    const contextWindow =
      positiveNumber(entry["max_model_len"]) ??
      positiveNumber(entry["context_length"]) ??
      positiveNumber(entry["context_window"]);
    const ownedBy = entry["owned_by"];
    models.push({
      id,
      name: id,
      provider,
      capabilities: { ...UNKNOWN_CAPABILITIES, contextWindow },
      ...(typeof ownedBy === "string" ? { ownedBy } : {}),
    });
  }
  return models.sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * Lists the models of an OpenAI or compatible server (`GET {baseURL}/models`). Such
 * servers name ids only, so capabilities are `null` (unknown) except a context window
 * some servers report (vLLM's `max_model_len`).
 */
export async function listOpenAIModels(
  options: ListOpenAIModelsOptions = {},
): Promise<OpenAIModelInfo[]> {
  const connection = resolveOpenAIConnection(options);
  const { baseURL, apiKey } = connection;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const wording = openAIWording(connection, options.model ?? "");
  const headers: Record<string, string> = {
    accept: "application/json",
    ...options.headers,
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    ...(options.organization ? { "openai-organization": options.organization } : {}),
    ...(options.project ? { "openai-project": options.project } : {}),
  };
  try {
    const { value } = await retryRequest(
      (signal) => requestJson(fetchImpl, `${baseURL}/models`, { headers, signal }),
      {
        ...options.retry,
        wording,
        secrets: () => (apiKey ? [apiKey] : []),
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
    return parseOpenAIModels(value, connection.provider, options.includeAll);
  } catch (error) {
    if (!apiKey && options.model && findApiCallError(error)?.statusCode === 401) {
      return [
        {
          id: options.model,
          name: options.model,
          provider: connection.provider,
          capabilities: UNKNOWN_CAPABILITIES,
        },
      ];
    }
    throw error;
  }
}
