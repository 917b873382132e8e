export {
  findApiCallError,
  isRetryableStatus,
  networkErrorCode,
  ProviderTimeoutError,
  retryableFailure,
  type RetryableFailure,
} from "./failures.js";
export { errorBodyMessage, requestJson } from "./http.js";
export { redactError, redactText, REDACTED } from "./redact.js";
export {
  backoffDelayMs,
  DEFAULT_RETRY_OPTIONS,
  defaultSleep,
  parseRetryAfterMs,
  resolveRetryOptions,
  type ResolvedRetryOptions,
  type RetryableKind,
  type RetryEvent,
  type RetryOptions,
  type Sleep,
} from "./retry-policy.js";
export {
  retryMiddleware,
  retryRequest,
  withRetries,
  type WithRetriesOptions,
} from "./with-retries.js";
