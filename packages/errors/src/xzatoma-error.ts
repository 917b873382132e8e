import type { ErrorCode } from "./error-codes.js";

/**
 * The one marker of an XZatoma error. `Symbol.for` makes it the same symbol in every copy of
 * every package, so {@link isXzatomaError} works across duplicated installs where
 * `instanceof` would not.
 */
export const XZATOMA_ERROR = Symbol.for("xzatoma.error");

/** Options of {@link XzatomaError}. */
export interface XzatomaErrorOptions<F extends object = Readonly<Record<string, unknown>>> {
  readonly cause?: unknown;
  /**
   * What a front end needs to word advice: the provider, the key, the path, the URL. Never a
   * secret. Libraries put facts here and never name a front end's flags or commands.
   */
  readonly fields?: F;
}

/**
 * The base of every XZatoma error: a message for people, a stable {@link ErrorCode} for
 * programs, and `fields` with the facts behind the message.
 */
export class XzatomaError<F extends object = Readonly<Record<string, unknown>>> extends Error {
  readonly [XZATOMA_ERROR] = true;
  override readonly name: string = "XzatomaError";
  readonly code: ErrorCode;
  readonly fields: F;

  constructor(code: ErrorCode, message: string, options: XzatomaErrorOptions<F> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.fields = options.fields ?? ({} as F);
  }
}

/** True for any XZatoma error, from this install or another copy of the package. */
export function isXzatomaError(value: unknown): value is XzatomaError {
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
