import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { ProviderError } from "@xzatoma/core";
import { wrapLanguageModel } from "../middleware.js";
import { providerErrorsMiddleware, type ProviderErrorWording } from "../provider-errors.js";
import { redactError } from "../retry/redact.js";
import { requestJson } from "../retry/http.js";
import type { RetryOptions } from "../retry/retry-policy.js";
import { retryMiddleware, retryRequest } from "../retry/with-retries.js";
import { DEFAULT_COPILOT_HEADERS, DEFAULT_COPILOT_MODEL, type CopilotHeaders } from "./defaults.js";
import { hasImageInput, initiatorOf } from "./initiator.js";
import {
  isUsableCopilotModel,
  parseCopilotModels,
  type CopilotEndpoint,
  type CopilotModelInfo,
} from "./models.js";
import {
  createCopilotTokenSource,
  type CopilotSession,
  type CopilotTokenOptions,
  type CopilotTokenSource,
} from "./token.js";
import { lazyModel } from "../lazy-model.js";

type Fetch = typeof globalThis.fetch;

/** Options of {@link createCopilotClient}. */
export interface CopilotClientOptions extends Omit<CopilotTokenOptions, "headers"> {
  /** A token source to share (e.g. between clients); otherwise one is made from these options. */
  readonly tokens?: CopilotTokenSource;
  /**
   * Editor and integration headers (overrides of {@link DEFAULT_COPILOT_HEADERS}) plus any
   * extra header for every request.
   */
  readonly headers?: Partial<CopilotHeaders> & Record<string, string>;
  /** Retries, backoff and timeouts; see {@link RetryOptions}. */
  readonly retry?: RetryOptions;
  /** How long a `/models` listing is reused. Default 5 minutes. */
  readonly modelsTtlMs?: number;
}

/** Options of one Copilot model. */
export interface CopilotModelOptions {
  /**
   * Forces the endpoint. By default it is chosen from the model's `supported_endpoints`
   * in `/models`: `/responses` when listed, else `/chat/completions`.
   */
  readonly endpoint?: CopilotEndpoint;
}

/** Options of {@link listCopilotModels} and {@link CopilotClient.listModels}. */
export interface ListCopilotModelsOptions {
  /** Every listed model, embeddings and policy-disabled ones included. Default false. */
  readonly all?: boolean;
  /** Bypass the cached listing. */
  readonly fresh?: boolean;
  readonly signal?: AbortSignal;
}

/** A signed-in Copilot connection: models, listings and tokens share it. */
export interface CopilotClient {
  /** A language model; nothing is requested until it is used. */
  model(id?: string, options?: CopilotModelOptions): LanguageModelV4;
  /** The chat models the account can use (from `/models`), with capabilities and limits. */
  listModels(options?: ListCopilotModelsOptions): Promise<CopilotModelInfo[]>;
  readonly tokens: CopilotTokenSource;
}

const PLACEHOLDER_KEY = "copilot-token-set-per-request";

/**
 * Creates a Copilot client: token exchange and refresh, the editor headers, `/models`,
 * and models routed to `/chat/completions` or `/responses`.
 *
 * @example
 * const copilot = createCopilotClient({ getGithubToken: () => keyring.get("github") });
 * const agent = new Agent({ model: copilot.model("claude-sonnet-4") });
 */
export function createCopilotClient(options: CopilotClientOptions = {}): CopilotClient {
  const editorHeaders: Record<string, string> = { ...DEFAULT_COPILOT_HEADERS, ...options.headers };
  const tokens =
    options.tokens ??
    createCopilotTokenSource({
      ...options,
      headers: editorHeaders as Partial<CopilotHeaders>,
    });
  const baseFetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const modelsTtlMs = options.modelsTtlMs ?? 5 * 60_000;
  let currentBase = options.apiBaseUrl ?? "the Copilot API";
  const wording: ProviderErrorWording = {
    providerName: "GitHub Copilot",
    provider: "copilot",
    get baseUrl() {
      return currentBase;
    },
    explain: (_message, status) =>
      status === 401
        ? { code: "PROVIDER_AUTH", message: "GitHub Copilot rejected the token (HTTP 401)." }
        : undefined,
  };
  const secrets = () => tokens.secrets();

  /** Adds the Copilot token, and replaces a rejected one once. */
  const copilotFetch: Fetch = async (input, init) => {
    const session = await tokens.get();
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${session.token}`);
    const response = await baseFetch(input, { ...init, headers });
    if (response.status !== 401 || !tokens.exchanges) return response;
    await response.body?.cancel().catch(() => undefined);
    const fresh = await tokens.refresh(session.token);
    headers.set("authorization", `Bearer ${fresh.token}`);
    return baseFetch(input, { ...init, headers });
  };

  let listing: { models: CopilotModelInfo[]; at: number } | undefined;
  let listingPending: Promise<CopilotModelInfo[]> | undefined;

  async function fetchListing(signal?: AbortSignal): Promise<CopilotModelInfo[]> {
    const { value } = await retryRequest(
      async (attemptSignal) => {
        const session = await tokens.get(attemptSignal);
        currentBase = session.baseURL;
        return requestJson(copilotFetch, `${session.baseURL}/models`, {
          headers: { accept: "application/json", ...editorHeaders },
          signal: attemptSignal,
        });
      },
      { ...options.retry, wording, secrets, ...(signal ? { signal } : {}) },
    );
    const models = parseCopilotModels(value);
    listing = { models, at: now() };
    return models;
  }

  async function allModels(fresh: boolean, signal?: AbortSignal): Promise<CopilotModelInfo[]> {
    if (!fresh && listing && now() - listing.at < modelsTtlMs) return listing.models;
    listingPending ??= fetchListing(signal).finally(() => (listingPending = undefined));
    return listingPending;
  }

  const sdkModels = new Map<string, { chat: LanguageModelV4; responses: LanguageModelV4 }>();
  function sdkModelsFor(session: CopilotSession, modelId: string) {
    const key = `${session.baseURL}\n${modelId}`;
    let models = sdkModels.get(key);
    if (!models) {
      const chat = lazyModel("copilot.chat", modelId, async () => {
        const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
        return createOpenAICompatible({
          name: "copilot",
          baseURL: session.baseURL,
          headers: editorHeaders,
          fetch: copilotFetch,
          includeUsage: true,
        }).chatModel(modelId);
      });
      const responses = lazyModel("copilot.responses", modelId, async () => {
        const { createOpenAI } = await import("@ai-sdk/openai");
        return createOpenAI({
          name: "copilot",
          baseURL: session.baseURL,
          apiKey: PLACEHOLDER_KEY,
          headers: editorHeaders,
          fetch: copilotFetch,
        }).responses(modelId);
      });
      models = { chat, responses };
      sdkModels.set(key, models);
    }
    return models;
  }

  async function endpointFor(
    modelId: string,
    forced: CopilotEndpoint | undefined,
    signal: AbortSignal | undefined,
  ): Promise<CopilotEndpoint> {
    if (forced) return forced;
    const listed = (await allModels(false, signal)).find((model) => model.id === modelId);
    if (!listed) return "chat";
    if (listed.endpoint) return listed.endpoint;
    throw new ProviderError(
      `The Copilot model '${modelId}' offers only ${listed.supportedEndpoints.join(", ")}, which XZatoma does not speak. Choose another model.`,
      { fields: { provider: "copilot", model: modelId } },
    );
  }

  function model(id = DEFAULT_COPILOT_MODEL, modelOptions: CopilotModelOptions = {}) {
    async function route(callOptions: LanguageModelV4CallOptions) {
      const session = await tokens.get(callOptions.abortSignal);
      currentBase = session.baseURL;
      const endpoint = await endpointFor(id, modelOptions.endpoint, callOptions.abortSignal);
      const models = sdkModelsFor(session, id);
      const headers: Record<string, string | undefined> = {
        ...callOptions.headers,
        "X-Initiator": initiatorOf(callOptions.prompt),
        ...(hasImageInput(callOptions.prompt) ? { "Copilot-Vision-Request": "true" } : {}),
      };
      return { inner: endpoint === "responses" ? models.responses : models.chat, headers };
    }
    const router: LanguageModelV4 = {
      specificationVersion: "v4",
      provider: "copilot",
      modelId: id,
      supportedUrls: {},
      async doGenerate(callOptions) {
        const { inner, headers } = await route(callOptions);
        return inner.doGenerate({ ...callOptions, headers });
      },
      async doStream(callOptions) {
        const { inner, headers } = await route(callOptions);
        return inner.doStream({ ...callOptions, headers });
      },
    };
    return wrapLanguageModel({
      model: router,
      middleware: [
        retryMiddleware({ ...options.retry, wording, secrets }),
        providerErrorsMiddleware(wording),
      ],
    });
  }

  return {
    model,
    tokens,
    async listModels(listOptions = {}) {
      try {
        const models = await allModels(listOptions.fresh ?? false, listOptions.signal);
        return listOptions.all ? models : models.filter(isUsableCopilotModel);
      } catch (error) {
        throw redactError(error, secrets());
      }
    },
  };
}

/** Options of {@link createCopilotModel}. */
export interface CopilotModelFactoryOptions extends CopilotClientOptions, CopilotModelOptions {
  /** The model id, e.g. `claude-sonnet-4`. Default `gpt-5-mini`. */
  readonly model?: string;
}

/** Creates one Copilot language model with its own client (see {@link createCopilotClient}). */
export function createCopilotModel(options: CopilotModelFactoryOptions = {}): LanguageModelV4 {
  return createCopilotClient(options).model(
    options.model,
    options.endpoint ? { endpoint: options.endpoint } : {},
  );
}

/** Lists the Copilot models the account can use (see {@link CopilotClient.listModels}). */
export function listCopilotModels(
  options: CopilotClientOptions & ListCopilotModelsOptions = {},
): Promise<CopilotModelInfo[]> {
  return createCopilotClient(options).listModels(options);
}
