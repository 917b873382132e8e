/**
 * What a failed XZepr API call throws.
 */
import { XzatomaError } from "@xzatoma/errors";

/** The facts behind an {@link XzeprApiError}; never the API token. */
export interface XzeprApiErrorFields {
  readonly reason: string;
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly field?: string;
}

/**
 * A call to XZepr's REST API failed (code `XZEPR_API_ERROR`). `reason` is XZepr's own error
 * code from the body (`validation_error`, `invalid_id`, `not_found`, `event_creation_failed`,
 * `unauthorized`, `internal_error`, ...) or, when XZepr gave none, one of:
 * - `http_error`: an error status whose body is not XZepr's JSON error (a proxy, the
 *   framework's 415/422 text);
 * - `invalid_response`: a success whose body is not the documented shape;
 * - `timeout`: no answer within the client's `timeoutMs`;
 * - `aborted`: the caller's signal aborted the call;
 * - `network_error`: XZepr could not be reached.
 *
 * The message names the method and path and, for HTTP errors, the status; it never contains
 * the API token. `fields` repeats `reason`, `method`, `path`, `status` and `field`.
 */
export class XzeprApiError extends XzatomaError<XzeprApiErrorFields> {
  declare readonly code: "XZEPR_API_ERROR";
  override readonly name = "XzeprApiError";
  /** XZepr's error code, or one of the client's reasons listed above. */
  readonly reason: string;
  /** The HTTP status; `undefined` when no answer came. */
  readonly status: number | undefined;
  readonly method: string;
  /** The path called, with its query, e.g. `/api/v1/receivers?limit=100&offset=0`. */
  readonly path: string;
  /** The request field XZepr blamed, when it named one. */
  readonly field: string | undefined;

  constructor(options: {
    readonly reason: string;
    readonly message: string;
    readonly method: string;
    readonly path: string;
    readonly status?: number;
    readonly field?: string;
    readonly cause?: unknown;
  }) {
    const { reason, method, path, status, field } = options;
    super("XZEPR_API_ERROR", options.message, {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      fields: {
        reason,
        method,
        path,
        ...(status === undefined ? {} : { status }),
        ...(field === undefined ? {} : { field }),
      },
    });
    this.reason = reason;
    this.status = status;
    this.method = method;
    this.path = path;
    this.field = field;
  }
}

/** True for an {@link XzeprApiError}, from this copy of the package or another. */
export function isXzeprApiError(value: unknown): value is XzeprApiError {
  return (
    value instanceof Error &&
    value.name === "XzeprApiError" &&
    typeof (value as { code?: unknown }).code === "string" &&
    typeof (value as { method?: unknown }).method === "string"
  );
}
