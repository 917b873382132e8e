/**
 * Every error code an XZatoma package may throw. The set is closed: adding a code is a
 * change to this list, so a front end's table of hints and exit codes (the CLI's
 * `error-table.ts`) is checked by the compiler to cover each one.
 */
export const ERROR_CODES = [
  // Caller input.
  "INVALID_ARGUMENT",
  "CONFIG_INVALID",
  "FEATURE_NOT_AVAILABLE",
  // Model providers.
  "PROVIDER_UNAVAILABLE",
  "PROVIDER_ERROR",
  "PROVIDER_AUTH",
  "PROVIDER_TIMEOUT",
  "MODEL_NOT_FOUND",
  "EMPTY_RESPONSE",
  "CONTEXT_LENGTH_EXCEEDED",
  "CREDENTIAL_STORE_UNAVAILABLE",
  // Tools and their registry.
  "TOOL_ALREADY_REGISTERED",
  "TOOL_PACKAGE_INVALID",
  "GLOB_INVALID",
  // Safety.
  "PATH_OUTSIDE_WORKSPACE",
  "PATH_PROTECTED",
  "URL_BLOCKED",
  "PATTERN_INVALID",
  "PATTERN_TOO_COMPLEX",
  "SANDBOX_REFUSED",
  // Plans and conversations.
  "PLAN_INVALID",
  "CONVERSATION_FORMAT_INVALID",
  // History.
  "CONVERSATION_NOT_FOUND",
  "AMBIGUOUS_CONVERSATION_ID",
  "HISTORY_OPEN_FAILED",
  "HISTORY_MIGRATIONS_MISSING",
  "HISTORY_MIGRATION_FAILED",
  "HISTORY_SQLITE_UNAVAILABLE",
  "HISTORY_UNAVAILABLE",
  // Events.
  "XZEPR_EVENT_INVALID",
  "EVENT_FILTER_INVALID",
  "KAFKA_AUTH_FAILED",
  "KAFKA_UNAVAILABLE",
  "KAFKA_CONSUMER_FAILED",
  "XZEPR_API_ERROR",
] as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** True when `value` is one of {@link ERROR_CODES}. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}
