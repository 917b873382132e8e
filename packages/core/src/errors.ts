import { XzatomaError, type ErrorCode, type XzatomaErrorOptions } from "@xzatoma/errors";

export {
  describeError,
  ERROR_CODES,
  isXzatomaError,
  XzatomaError,
  type ErrorCode,
  type XzatomaErrorOptions,
} from "@xzatoma/errors";

/** @deprecated The same as {@link ErrorCode}; kept for embedders of 0.1. */
export type XzatomaErrorCode = ErrorCode;

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
