import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4Middleware,
  type LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import {
  describeError,
  isXzatomaError,
  ProviderError,
  ProviderUnavailableError,
  XzatomaError,
  type ErrorCode,
} from "@xzatoma/core";
import { wrapLanguageModel } from "./middleware.js";

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

/**
 * A server error rewritten by {@link ProviderErrorWording.explain}: its own code (such as
 * `MODEL_NOT_FOUND` or `PROVIDER_AUTH`), message and facts.
 */
export interface ExplainedProviderError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly fields?: Readonly<Record<string, unknown>>;
}

/**
 * Why `fetch` failed without a response, when an error is (or is caused by) its
 * `TypeError: fetch failed`: the cause's code or message (`bad port`, `ECONNREFUSED`, ...).
 * Undefined for every other error.
 */
export function fetchFailureReason(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth += 1) {
    if (current instanceof TypeError && current.message === "fetch failed") {
      const cause = (current as { cause?: unknown }).cause as
        { code?: unknown; message?: unknown } | undefined;
      if (typeof cause?.code === "string") return cause.code;
      if (typeof cause?.message === "string" && cause.message !== "") return cause.message;
      return "fetch failed";
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Why the request never reached the server, when the AI SDK reports that as an
 * `APICallError` "Cannot connect to API: <reason>" with no HTTP status (it unwraps fetch's
 * `TypeError: fetch failed`, so {@link fetchFailureReason} cannot see it): the cause's code or
 * message (`bad port`, ...). Undefined for an error a server answered with.
 */
export function cannotConnectReason(error: unknown): string | undefined {
  if (!APICallError.isInstance(error) || error.statusCode !== undefined) return undefined;
  const prefix = "Cannot connect to API:";
  if (!error.message.startsWith(prefix)) return undefined;
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.code === "string" && cause.code !== "") return cause.code;
  if (typeof cause?.message === "string" && cause.message !== "") return cause.message;
  return error.message.slice(prefix.length).trim() || "cannot connect";
}

/** Says, for one provider, what a failure means. Libraries state facts; front ends add advice. */
export interface ProviderErrorWording {
  /** How messages name the server: "Ollama", "OpenAI", ... */
  readonly providerName: string;
  /**
   * The provider's id in errors' `fields.provider` (`ollama`, `openai`, `copilot`, ...).
   * Default: `providerName` in lower case.
   */
  readonly provider?: string;
  readonly baseUrl: string;
  /** A sentence after "Cannot reach <provider> at <url> (<code>).", if any. */
  readonly unreachableHint?: string;
  /**
   * Rewrites a server error into a clearer message (a string keeps the `PROVIDER_ERROR`
   * code) or a typed error; returns undefined to keep it.
   */
  readonly explain?: (
    message: string,
    status: number | undefined,
  ) => string | ExplainedProviderError | undefined;
}

/** `fields.provider` of errors worded by `wording`. */
export function providerIdOf(wording: ProviderErrorWording): string {
  return wording.provider ?? wording.providerName.toLowerCase();
}

/** The error for a server that cannot be reached: `PROVIDER_UNAVAILABLE` with `{provider, url}`. */
export function unreachableError(
  wording: ProviderErrorWording,
  code: string,
  cause: unknown,
): ProviderUnavailableError {
  const hint = wording.unreachableHint ? ` ${wording.unreachableHint}` : "";
  return new ProviderUnavailableError(
    `Cannot reach ${wording.providerName} at ${wording.baseUrl} (${code}).${hint}`,
    { cause, fields: { provider: providerIdOf(wording), url: wording.baseUrl, reason: code } },
  );
}

function explained(
  result: string | ExplainedProviderError | undefined,
  fallback: string,
  wording: ProviderErrorWording,
  cause: unknown,
  status: number | undefined,
): XzatomaError {
  const fields = {
    provider: providerIdOf(wording),
    url: wording.baseUrl,
    ...(status === undefined ? {} : { status }),
  };
  if (result === undefined || typeof result === "string")
    return new ProviderError(result ?? fallback, { cause, fields });
  return new XzatomaError(result.code, result.message, {
    cause,
    fields: { ...fields, ...result.fields },
  });
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
  const code =
    connectionErrorCode(error) ?? fetchFailureReason(error) ?? cannotConnectReason(error);
  if (code) return unreachableError(wording, code, error);
  if (APICallError.isInstance(error)) {
    const message = serverMessage(error);
    const status = error.statusCode === undefined ? "" : ` (HTTP ${error.statusCode})`;
    return explained(
      wording.explain?.(message, error.statusCode),
      `${wording.providerName} answered with an error${status}: ${message}`,
      wording,
      error,
      error.statusCode,
    );
  }
  const message = describeError(error);
  return explained(
    wording.explain?.(message, undefined),
    `${wording.providerName} failed: ${message}`,
    wording,
    error,
    undefined,
  );
}

/**
 * Middleware that makes every failure, thrown or streamed, arrive as an XZatoma error
 * worded for the user. The model's behaviour is otherwise unchanged.
 */
export function providerErrorsMiddleware(wording: ProviderErrorWording): LanguageModelV4Middleware {
  return {
    specificationVersion: "v4",
    async wrapGenerate({ doGenerate }) {
      try {
        return await doGenerate();
      } catch (error) {
        throw translateProviderError(error, wording);
      }
    },
    async wrapStream({ doStream }) {
      let result;
      try {
        result = await doStream();
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

/** `model` with {@link providerErrorsMiddleware}. */
export function withProviderErrors(
  model: LanguageModelV4,
  wording: ProviderErrorWording,
): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: providerErrorsMiddleware(wording) });
}
