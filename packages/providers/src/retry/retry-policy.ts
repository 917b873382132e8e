/** Waits `ms` milliseconds; rejects with the signal's reason if it is aborted first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Options of provider retries. Every field has a default. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 3; 1 disables retries. */
  readonly maxAttempts?: number;
  /** Backoff before the second attempt, doubled for each further one. Default 500 ms. */
  readonly initialDelayMs?: number;
  /** Upper bound of one backoff. Default 8 s. */
  readonly maxDelayMs?: number;
  /**
   * The longest `Retry-After` honoured. A server asking for a longer wait ends the retries
   * at once with a clear error rather than freezing the session. Default 60 s.
   */
  readonly maxRetryAfterMs?: number;
  /** Time to wait for the response and its first stream part. Default 120 s. */
  readonly responseTimeoutMs?: number;
  /** Longest silence allowed between two stream parts once the stream has begun. Default 60 s. */
  readonly idleTimeoutMs?: number;
  /** Injectable for tests. Default: an abortable `setTimeout`. */
  readonly sleep?: Sleep;
  /** Clock in milliseconds since the epoch, used to read a `Retry-After` date. Default `Date.now`. */
  readonly now?: () => number;
  /** Random number in [0, 1) for jitter. Default `Math.random`. */
  readonly random?: () => number;
  /** Told about every retry before its wait. */
  readonly onRetry?: (event: RetryEvent) => void;
}

/** What {@link RetryOptions.onRetry} receives. */
export interface RetryEvent {
  /** The attempt that failed (1-based). */
  readonly attempt: number;
  readonly delayMs: number;
  /** HTTP status of the failure, if it was one. */
  readonly status?: number;
  /** `status`, `connection` or `timeout`. */
  readonly kind: RetryableKind;
}

export type RetryableKind = "status" | "connection" | "timeout";

/** {@link RetryOptions} with every default filled in. */
export interface ResolvedRetryOptions {
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxRetryAfterMs: number;
  readonly responseTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly sleep: Sleep;
  readonly now: () => number;
  readonly random: () => number;
  readonly onRetry: ((event: RetryEvent) => void) | undefined;
}

export const DEFAULT_RETRY_OPTIONS = {
  maxAttempts: 3,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  responseTimeoutMs: 120_000,
  idleTimeoutMs: 60_000,
} as const;

/** The default {@link Sleep}: a timer that an abort signal cancels. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`Retry option '${name}' must be a non-negative number, not ${value}.`);
  }
  return value;
}

/** Fills in the defaults of {@link RetryOptions} and checks the values. */
export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  const maxAttempts = Math.floor(
    positive(options.maxAttempts, DEFAULT_RETRY_OPTIONS.maxAttempts, "maxAttempts"),
  );
  if (maxAttempts < 1) throw new RangeError("Retry option 'maxAttempts' must be at least 1.");
  return {
    maxAttempts,
    initialDelayMs: positive(
      options.initialDelayMs,
      DEFAULT_RETRY_OPTIONS.initialDelayMs,
      "initialDelayMs",
    ),
    maxDelayMs: positive(options.maxDelayMs, DEFAULT_RETRY_OPTIONS.maxDelayMs, "maxDelayMs"),
    maxRetryAfterMs: positive(
      options.maxRetryAfterMs,
      DEFAULT_RETRY_OPTIONS.maxRetryAfterMs,
      "maxRetryAfterMs",
    ),
    responseTimeoutMs: positive(
      options.responseTimeoutMs,
      DEFAULT_RETRY_OPTIONS.responseTimeoutMs,
      "responseTimeoutMs",
    ),
    idleTimeoutMs: positive(
      options.idleTimeoutMs,
      DEFAULT_RETRY_OPTIONS.idleTimeoutMs,
      "idleTimeoutMs",
    ),
    sleep: options.sleep ?? defaultSleep,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    onRetry: options.onRetry,
  };
}

/**
 * The backoff before attempt `failedAttempt + 1`: exponential from `initialDelayMs`, capped
 * at `maxDelayMs`, with "equal jitter" (half fixed, half random) so clients that failed
 * together do not retry together.
 */
export function backoffDelayMs(
  failedAttempt: number,
  options: Pick<ResolvedRetryOptions, "initialDelayMs" | "maxDelayMs" | "random">,
): number {
  const exponential = Math.min(
    options.maxDelayMs,
    options.initialDelayMs * 2 ** Math.max(0, failedAttempt - 1),
  );
  return Math.round(exponential / 2 + (exponential / 2) * options.random());
}

/**
 * Reads a `Retry-After` value, in delta-seconds or as an HTTP date, into milliseconds.
 * `retry-after-ms` (sent by OpenAI and Azure) wins when present. Undefined when absent
 * or unreadable.
 */
export function parseRetryAfterMs(
  headers: Readonly<Record<string, string | undefined>> | Headers | undefined,
  now: number,
): number | undefined {
  if (!headers) return undefined;
  const get = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    for (const [key, value] of Object.entries(headers))
      if (key.toLowerCase() === name) return value;
    return undefined;
  };
  const milliseconds = get("retry-after-ms")?.trim();
  if (milliseconds && /^\d+(\.\d+)?$/.test(milliseconds)) return Number(milliseconds);
  const value = get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
