import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import {
  describeError,
  isXzatomaError,
  ProviderError,
  ProviderUnavailableError,
} from "@xzatoma/core";

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
]);

/** The network error code somewhere in an error's cause chain, if any. */
export function connectionErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && CONNECTION_CODES.has(code)) return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      for (const inner of errors) {
        const innerCode = connectionErrorCode(inner);
        if (innerCode) return innerCode;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Says, for one provider, what a failure means and what the user can do about it. */
export interface ProviderErrorWording {
  /** "Ollama", "OpenAI", ... */
  readonly providerName: string;
  readonly baseUrl: string;
  /** The hint after "Cannot reach <provider> at <url>". */
  readonly unreachableHint: string;
  /** Rewrites a server error message into advice; returns undefined to keep it. */
  readonly explain?: (message: string, status: number | undefined) => string | undefined;
}

function serverMessage(error: APICallError): string {
  try {
    const body = JSON.parse(error.responseBody ?? "") as { error?: unknown };
    if (typeof body.error === "string") return body.error;
  } catch {
    // The body was not JSON: fall back to the SDK's message.
  }
  return error.message;
}

/** Turns whatever a provider SDK threw into an XZatoma error with a clear message. */
export function translateProviderError(error: unknown, wording: ProviderErrorWording): Error {
  if (isXzatomaError(error)) return error;
  if (error instanceof Error && error.name === "AbortError") return error;
  const code = connectionErrorCode(error);
  if (code) {
    return new ProviderUnavailableError(
      `Cannot reach ${wording.providerName} at ${wording.baseUrl} (${code}). ${wording.unreachableHint}`,
      { cause: error },
    );
  }
  if (APICallError.isInstance(error)) {
    const message = serverMessage(error);
    const explained = wording.explain?.(message, error.statusCode);
    const status = error.statusCode === undefined ? "" : ` (HTTP ${error.statusCode})`;
    return new ProviderError(
      explained ?? `${wording.providerName} answered with an error${status}: ${message}`,
      {
        cause: error,
      },
    );
  }
  const message = describeError(error);
  const explained = wording.explain?.(message, undefined);
  return new ProviderError(explained ?? `${wording.providerName} failed: ${message}`, {
    cause: error,
  });
}

/**
 * Wraps a model so every failure, thrown or streamed, arrives as an XZatoma error
 * worded for the user. The model's behaviour is otherwise unchanged.
 */
export function withProviderErrors(
  model: LanguageModelV4,
  wording: ProviderErrorWording,
): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    async doGenerate(options) {
      try {
        return await model.doGenerate(options);
      } catch (error) {
        throw translateProviderError(error, wording);
      }
    },
    async doStream(options) {
      let result;
      try {
        result = await model.doStream(options);
      } catch (error) {
        throw translateProviderError(error, wording);
      }
      const stream = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            controller.enqueue(
              part.type === "error"
                ? { type: "error", error: translateProviderError(part.error, wording) }
                : part,
            );
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
