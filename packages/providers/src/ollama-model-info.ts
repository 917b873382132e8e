import { createNodeHttpClient, fetchHttpClient, type HttpClient } from "./http/http-client.js";
import { parseJsonAnswer } from "./retry/http.js";
import type { RetryOptions } from "./retry/retry-policy.js";
import { retryRequest } from "./retry/with-retries.js";
import type { ProviderErrorWording } from "./provider-errors.js";

/** What Ollama's `/api/show` says about a model. */
export interface OllamaModelInfo {
  /** The trained context length, when the model reports one. */
  readonly contextLength: number | undefined;
  /** Whether its template supports tools. */
  readonly supportsTools: boolean;
  /** Whether it reads images (`capabilities` has `vision`); undefined when the server does not list capabilities. */
  readonly vision?: boolean | undefined;
}

interface ShowResponse {
  model_info?: Record<string, unknown>;
  capabilities?: string[];
  template?: string;
}

/** One model of Ollama's `/api/tags`. */
export interface OllamaTag {
  /** The name to pass as `model`, e.g. `llama3.2:latest`. */
  readonly name: string;
  /** `details.parameter_size`, e.g. `3.2B`, when given. */
  readonly parameterSize: string | undefined;
}

interface TagsResponse {
  models?: { name?: unknown; model?: unknown; details?: { parameter_size?: unknown } }[];
}

/** Options of {@link listOllamaTags}. */
export interface ListOllamaTagsOptions {
  /** Sends the request through this fetch. Default: Node's `http`/`https`. */
  readonly fetch?: typeof globalThis.fetch;
  readonly retry?: RetryOptions;
  readonly wording: ProviderErrorWording;
  readonly signal?: AbortSignal;
}

/**
 * The models an Ollama server has (`GET /api/tags`). An unreachable server is a
 * `PROVIDER_UNAVAILABLE` error with `{provider, url}`; an error answer a `PROVIDER_ERROR`.
 */
export async function listOllamaTags(
  host: string,
  options: ListOllamaTagsOptions,
): Promise<OllamaTag[]> {
  return listTagsWith(
    options.fetch ? fetchHttpClient(options.fetch) : createNodeHttpClient(),
    host,
    options,
  );
}

/** {@link listOllamaTags} through `client`. */
export async function listTagsWith(
  client: HttpClient,
  host: string,
  options: Omit<ListOllamaTagsOptions, "fetch">,
): Promise<OllamaTag[]> {
  const url = `${host}/api/tags`;
  const value = await retryRequest(
    async (signal) => {
      const response = await client({ url, headers: { accept: "application/json" }, signal });
      return parseJsonAnswer({ url, ...response, text: await response.text() });
    },
    {
      ...options.retry,
      wording: options.wording,
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  const tags: OllamaTag[] = [];
  for (const entry of (value as TagsResponse | undefined)?.models ?? []) {
    const name = typeof entry.name === "string" ? entry.name : entry.model;
    if (typeof name !== "string" || name === "") continue;
    const size = entry.details?.parameter_size;
    tags.push({ name, parameterSize: typeof size === "string" && size !== "" ? size : undefined });
  }
  return tags;
}

/**
 * The listed name `model` refers to: itself, or with `:latest` when it names no tag
 * (`llama3.2` is `llama3.2:latest`). Undefined when the server does not have it.
 */
export function findOllamaTag(tags: readonly OllamaTag[], model: string): OllamaTag | undefined {
  const wanted = model.includes(":") ? model : `${model}:latest`;
  return tags.find((tag) => tag.name === model || tag.name === wanted);
}

/**
 * Reads a model's trained context length (`model_info["<arch>.context_length"]`) and tool
 * support (`capabilities` has `tools`, or the template uses `.Tools`) from `/api/show`.
 * Resolves undefined when the server cannot say (old server, unknown model): the chat
 * request then reports the real problem.
 */
export async function inspectOllamaModel(
  host: string,
  model: string,
  fetchImpl?: typeof globalThis.fetch,
): Promise<OllamaModelInfo | undefined> {
  return inspectWith(fetchImpl ? fetchHttpClient(fetchImpl) : createNodeHttpClient(), host, model);
}

/** {@link inspectOllamaModel} through `client`. */
export async function inspectWith(
  client: HttpClient,
  host: string,
  model: string,
): Promise<OllamaModelInfo | undefined> {
  let body: ShowResponse;
  try {
    const response = await client({
      url: `${host}/api/show`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model }),
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status < 200 || response.status > 299) {
      response.cancel();
      return undefined;
    }
    body = JSON.parse(await response.text()) as ShowResponse;
    if (typeof body !== "object" || body === null) return undefined;
  } catch {
    return undefined;
  }
  const info = body.model_info ?? {};
  const architecture = info["general.architecture"];
  let contextLength =
    typeof architecture === "string" ? info[`${architecture}.context_length`] : undefined;
  if (typeof contextLength !== "number") {
    contextLength = Object.entries(info).find(
      ([key, value]) => key.endsWith("context_length") && typeof value === "number",
    )?.[1];
  }
  const supportsTools = body.capabilities
    ? body.capabilities.includes("tools")
    : (body.template ?? "").includes(".Tools");
  return {
    contextLength: typeof contextLength === "number" ? contextLength : undefined,
    supportsTools,
    vision: body.capabilities ? body.capabilities.includes("vision") : undefined,
  };
}
