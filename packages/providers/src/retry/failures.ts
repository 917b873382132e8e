import { APICallError } from "@ai-sdk/provider";
import {
  isXzatomaError,
  ProviderError,
  ProviderUnavailableError,
  XzatomaError,
  type XzatomaErrorOptions,
} from "@xzatoma/core";
import { connectionErrorCode } from "../provider-errors.js";
import { parseRetryAfterMs, type RetryableKind } from "./retry-policy.js";

/** The model server went silent: no response, or no stream data, within the time allowed. */
export class ProviderTimeoutError extends XzatomaError {
  override readonly name = "ProviderTimeoutError";
  constructor(message: string, options: XzatomaErrorOptions = {}) {
    super("PROVIDER_TIMEOUT", message, options);
  }
}

/** Network codes beyond those of `connectionErrorCode` that a retry may cure. */
const TRANSIENT_CODES = new Set([
  "ETIMEDOUT",
  "EPIPE",
  "ECONNABORTED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);

/** The network error code of a failure, if any, searching the whole cause chain. */
export function networkErrorCode(error: unknown): string | undefined {
  const known = connectionErrorCode(error);
  if (known) return known;
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && TRANSIENT_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The first `APICallError` in an error's cause chain. */
export function findApiCallError(error: unknown): APICallError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth += 1) {
    if (APICallError.isInstance(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function findTimeout(error: unknown): ProviderTimeoutError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth += 1) {
    if (current instanceof ProviderTimeoutError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** HTTP statuses worth another attempt: rate limits, timeouts and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501 && status !== 505);
}

/** Why a failure may be retried. */
export interface RetryableFailure {
  readonly kind: RetryableKind;
  readonly status?: number;
  /** The wait the server asked for, when it named one. */
  readonly retryAfterMs?: number;
  readonly code?: string;
}

/**
 * Decides whether a failed request may be retried: HTTP 408, 429 and 5xx, connection
 * failures and timeouts are; anything else (bad request, authentication, a broken
 * stream format) is not. Looks through the whole cause chain, so it works on raw SDK
 * errors and on errors already translated by `withProviderErrors`.
 */
export function retryableFailure(error: unknown, now: number): RetryableFailure | undefined {
  if (error instanceof Error && error.name === "AbortError") return undefined;
  if (findTimeout(error)) return { kind: "timeout" };
  const api = findApiCallError(error);
  if (api?.statusCode !== undefined && api.statusCode >= 400) {
    if (!isRetryableStatus(api.statusCode)) return undefined;
    const retryAfterMs = parseRetryAfterMs(api.responseHeaders, now);
    return {
      kind: "status",
      status: api.statusCode,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  const code = networkErrorCode(error);
  if (code) return { kind: "connection", code };
  return undefined;
}

/** Appends a sentence to an XZatoma error's message, keeping its class and code. */
export function withSentence(error: Error, sentence: string): Error {
  const message = `${error.message.replace(/\s+$/, "")} ${sentence}`;
  if (!isXzatomaError(error)) return new ProviderError(message, { cause: error });
  const options = { cause: error, fields: error.fields };
  switch (error.code) {
    case "PROVIDER_UNAVAILABLE":
      return new ProviderUnavailableError(message, options);
    case "PROVIDER_TIMEOUT":
      return new ProviderTimeoutError(message, options);
    case "PROVIDER_ERROR":
      return new ProviderError(message, options);
    default:
      return new XzatomaError(error.code, message, options);
  }
}
