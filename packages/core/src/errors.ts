/**
 * Errors with stable codes. Every XZatoma error carries the `Symbol.for("xzatoma.error")`
 * marker, so {@link isXzatomaError} works across packages and duplicated installs where
 * `instanceof` would not.
 */
const XZATOMA_ERROR = Symbol.for("xzatoma.error");

/** Stable error codes. Callers and the CLI's exit-code map switch on these. */
export type XzatomaErrorCode =
  | "INVALID_ARGUMENT"
  | "PROVIDER_UNAVAILABLE"
  | "PROVIDER_ERROR"
  | "EMPTY_RESPONSE"
  | "TOOL_ALREADY_REGISTERED"
  | (string & {});

/** Options of {@link XzatomaError}. */
export interface XzatomaErrorOptions {
  readonly cause?: unknown;
}

/** The base of every XZatoma error: a message for people and a stable `code` for programs. */
export class XzatomaError extends Error {
  readonly [XZATOMA_ERROR] = true;
  override readonly name: string = "XzatomaError";

  constructor(
    readonly code: XzatomaErrorCode,
    message: string,
    options: XzatomaErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** A value passed by the caller is invalid (a limit below 1, an empty prompt, ...). */
export class InvalidArgumentError extends XzatomaError {
  override readonly name = "InvalidArgumentError";
  constructor(message: string) {
    super("INVALID_ARGUMENT", message);
  }
}

/** The model server cannot be reached at all (connection refused, DNS, ...). */
export class ProviderUnavailableError extends XzatomaError {
  override readonly name = "ProviderUnavailableError";
  constructor(message: string, options: XzatomaErrorOptions = {}) {
    super("PROVIDER_UNAVAILABLE", message, options);
  }
}

/** The model server answered with an error, or the stream broke. */
export class ProviderError extends XzatomaError {
  override readonly name = "ProviderError";
  constructor(message: string, options: XzatomaErrorOptions = {}) {
    super("PROVIDER_ERROR", message, options);
  }
}

/** True for any XZatoma error, from this install or another copy of the package. */
export function isXzatomaError(value: unknown): value is Error & { code: XzatomaErrorCode } {
  return (
    value instanceof Error &&
    (value as unknown as Record<symbol, unknown>)[XZATOMA_ERROR] === true &&
    typeof (value as { code?: unknown }).code === "string"
  );
}

/** A one-line description of any thrown value, for events and messages. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
