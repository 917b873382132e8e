import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import { isXzatomaError, ProviderError } from "@xzatoma/core";
import { wrapLanguageModel } from "../middleware.js";
import {
  providerIdOf,
  translateProviderError,
  type ProviderErrorWording,
} from "../provider-errors.js";
import {
  networkErrorCode,
  ProviderTimeoutError,
  retryableFailure,
  withSentence,
  type RetryableFailure,
} from "./failures.js";
import { redactError } from "./redact.js";
import { backoffDelayMs, resolveRetryOptions, type RetryOptions } from "./retry-policy.js";

/** Options of {@link retryMiddleware} and {@link withRetries}. */
export interface WithRetriesOptions extends RetryOptions {
  /** How failures of this provider are worded (as for `withProviderErrors`). */
  readonly wording: ProviderErrorWording;
  /**
   * The credentials in use, asked for whenever an error is about to leave the model:
   * every one of them is redacted from the error's message and causes.
   */
  readonly secrets?: () => readonly string[];
}

type ReadResult = Awaited<
  ReturnType<ReadableStreamDefaultReader<LanguageModelV4StreamPart>["read"]>
>;

/** Parts a stream sends before its content; a failure after them can still be retried. */
function isPreamble(part: LanguageModelV4StreamPart): boolean {
  return part.type === "stream-start" || part.type === "response-metadata" || part.type === "raw";
}

function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function attemptsSentence(attempts: number): string {
  return `Gave up after ${attempts} attempts.`;
}

/** Races `promise` against a timer; on expiry calls `onTimeout` and rejects with its error. */
function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  if (!Number.isFinite(ms) || ms <= 0) return promise;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      },
    );
  });
}

function createRetryLogic(options: WithRetriesOptions) {
  const policy = resolveRetryOptions(options);
  const { wording } = options;
  const secrets = options.secrets;
  const clean = (error: unknown): unknown => (secrets ? redactError(error, secrets()) : error);

  const fields = (timeoutMs: number) => ({
    provider: providerIdOf(wording),
    url: wording.baseUrl,
    timeoutSeconds: timeoutMs / 1000,
  });
  const responseTimeout = () =>
    new ProviderTimeoutError(
      `${wording.providerName} at ${wording.baseUrl} did not answer within ${seconds(policy.responseTimeoutMs)}.`,
      { fields: fields(policy.responseTimeoutMs) },
    );
  const idleTimeout = () =>
    new ProviderTimeoutError(
      `${wording.providerName} stopped sending its answer: nothing arrived for ${seconds(policy.idleTimeoutMs)}.`,
      { fields: fields(policy.idleTimeoutMs) },
    );

  /** The final error of a request: translated, and saying how many attempts were made. */
  function finalError(
    error: unknown,
    attempts: number,
    failure: RetryableFailure | undefined,
    note?: string,
  ): unknown {
    if (error instanceof Error && error.name === "AbortError") return error;
    let translated = translateProviderError(error, wording);
    if (failure?.kind === "connection" && failure.status === undefined && midStream(error)) {
      translated = new ProviderError(
        `The connection to ${wording.providerName} at ${wording.baseUrl} broke before the answer began (${failure.code ?? "connection lost"}).`,
        { cause: error, fields: { provider: providerIdOf(wording), url: wording.baseUrl } },
      );
    }
    if (note) translated = withSentence(translated, note);
    if (attempts > 1) translated = withSentence(translated, attemptsSentence(attempts));
    return clean(translated);
  }

  /** Whether a connection failure happened while reading an answer (HTTP 200). */
  function midStream(error: unknown): boolean {
    let current: unknown = error;
    for (let depth = 0; current && depth < 8; depth += 1) {
      if ((current as { statusCode?: unknown }).statusCode === 200) return true;
      current = (current as { cause?: unknown }).cause;
    }
    return false;
  }

  /** Decides after a failed attempt: returns the delay before the next one, or throws. */
  function nextDelay(error: unknown, attempt: number, signal: AbortSignal | undefined): number {
    if (signal?.aborted) throw clean(error);
    const failure = retryableFailure(error, policy.now());
    if (!failure || attempt >= policy.maxAttempts) throw finalError(error, attempt, failure);
    if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxRetryAfterMs) {
      throw finalError(
        error,
        attempt,
        failure,
        `It asked to retry after ${seconds(Math.ceil(failure.retryAfterMs / 1000) * 1000)}, longer than the ${seconds(policy.maxRetryAfterMs)} XZatoma waits.`,
      );
    }
    const delayMs = failure.retryAfterMs ?? backoffDelayMs(attempt, policy);
    policy.onRetry?.({
      attempt,
      delayMs,
      kind: failure.kind,
      ...(failure.status === undefined ? {} : { status: failure.status }),
    });
    return delayMs;
  }

  /** Translates a failure after content was delivered. */
  function streamFailure(error: unknown): unknown {
    if (error instanceof Error && error.name === "AbortError") return error;
    if (error instanceof ProviderTimeoutError) return clean(error);
    if (isXzatomaError(error)) return clean(error);
    const code = networkErrorCode(error);
    if (code) {
      return clean(
        new ProviderError(
          `The connection to ${wording.providerName} broke in the middle of the answer (${code}); the answer is incomplete.`,
          { cause: error, fields: { provider: providerIdOf(wording), url: wording.baseUrl } },
        ),
      );
    }
    return clean(translateProviderError(error, wording));
  }

  return { policy, clean, finalError, nextDelay, streamFailure, responseTimeout, idleTimeout };
}

/**
 * Middleware of retries, timeouts and credential redaction; usable over any provider's
 * model (with `providerErrorsMiddleware` below it or not). Each attempt calls the model
 * below with its own abort signal.
 *
 * - A request that fails with HTTP 408/429/5xx or a connection error is retried with
 *   exponential backoff and jitter, honouring `Retry-After`, up to `maxAttempts` in all.
 * - A stream that fails before its first content part (only `stream-start` and
 *   `response-metadata` seen) is retried the same way; once content has been delivered
 *   a failure ends the stream, since the caller has already shown part of the answer.
 * - No response or first part within `responseTimeoutMs`, or silence between parts for
 *   `idleTimeoutMs`, aborts the request with a {@link ProviderTimeoutError}.
 * - After the last attempt the error names the provider, the status and the attempts.
 *   The caller's conversation is untouched: nothing is delivered from failed attempts.
 */
export function retryMiddleware(options: WithRetriesOptions): LanguageModelV4Middleware {
  const { policy, clean, nextDelay, streamFailure, responseTimeout, idleTimeout } =
    createRetryLogic(options);
  const redacting = options.secrets !== undefined;

  async function attemptStream(
    model: LanguageModelV4,
    callOptions: LanguageModelV4CallOptions,
  ): Promise<LanguageModelV4StreamResult> {
    for (let attempt = 1; ; attempt += 1) {
      const controller = new AbortController();
      const signal = callOptions.abortSignal
        ? AbortSignal.any([callOptions.abortSignal, controller.signal])
        : controller.signal;
      let reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart> | undefined;
      const buffered: LanguageModelV4StreamPart[] = [];
      let ended = false;
      try {
        const started = Promise.resolve(model.doStream({ ...callOptions, abortSignal: signal }));
        started.catch(() => undefined);
        const result = await within(started, policy.responseTimeoutMs, () => {
          const timeout = responseTimeout();
          controller.abort(timeout);
          return timeout;
        });
        reader = result.stream.getReader();
        const activeReader = reader;
        for (;;) {
          const read = activeReader.read();
          read.catch(() => undefined);
          const { done, value } = await within<ReadResult>(read, policy.responseTimeoutMs, () => {
            const timeout = responseTimeout();
            controller.abort(timeout);
            void activeReader.cancel(timeout).catch(() => undefined);
            return timeout;
          });
          if (done) {
            ended = true;
            break;
          }
          buffered.push(value);
          if (!isPreamble(value)) break;
        }
        return {
          ...result,
          stream: continueStream(buffered, activeReader, controller, ended),
        };
      } catch (error) {
        if (reader) void reader.cancel(error).catch(() => undefined);
        controller.abort(error);
        const delayMs = nextDelay(error, attempt, callOptions.abortSignal);
        await policy.sleep(delayMs, callOptions.abortSignal);
      }
    }
  }

  function continueStream(
    buffered: LanguageModelV4StreamPart[],
    reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart>,
    controller: AbortController,
    ended: boolean,
  ): ReadableStream<LanguageModelV4StreamPart> {
    let closed = ended;
    const forward = (part: LanguageModelV4StreamPart): LanguageModelV4StreamPart =>
      part.type === "error" && redacting ? { type: "error", error: clean(part.error) } : part;
    return new ReadableStream<LanguageModelV4StreamPart>({
      async pull(output) {
        const next = buffered.shift();
        if (next !== undefined) {
          output.enqueue(forward(next));
          return;
        }
        if (closed) {
          output.close();
          return;
        }
        try {
          const read = reader.read();
          read.catch(() => undefined);
          const { done, value } = await within<ReadResult>(read, policy.idleTimeoutMs, () => {
            const timeout = idleTimeout();
            controller.abort(timeout);
            void reader.cancel(timeout).catch(() => undefined);
            return timeout;
          });
          if (done) {
            closed = true;
            output.close();
            return;
          }
          output.enqueue(forward(value));
        } catch (error) {
          closed = true;
          controller.abort(error);
          output.error(streamFailure(error));
        }
      },
      async cancel(reason) {
        closed = true;
        controller.abort(reason);
        await reader.cancel(reason).catch(() => undefined);
      },
    });
  }

  function attemptGenerate(
    model: LanguageModelV4,
    callOptions: LanguageModelV4CallOptions,
  ): Promise<LanguageModelV4GenerateResult> {
    return retryLoop(
      (signal) => model.doGenerate({ ...callOptions, abortSignal: signal }),
      { policy, nextDelay, responseTimeout },
      callOptions.abortSignal,
    );
  }

  return {
    specificationVersion: "v4",
    wrapGenerate: ({ model, params }) => attemptGenerate(model, params),
    wrapStream: ({ model, params }) => attemptStream(model, params),
  };
}

/** `model` with {@link retryMiddleware}. */
export function withRetries(model: LanguageModelV4, options: WithRetriesOptions): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: retryMiddleware(options) });
}

/**
 * Runs `request` with the same retries, timeout and error wording as {@link withRetries},
 * for calls that are not model requests (model listings, token exchanges). `request`
 * receives a signal that is aborted when the attempt times out or the caller aborts.
 */
export async function retryRequest<T>(
  request: (signal: AbortSignal) => Promise<T>,
  options: WithRetriesOptions & { readonly signal?: AbortSignal },
): Promise<T> {
  return retryLoop(request, createRetryLogic(options), options.signal);
}

/**
 * Runs `request` until it answers: each attempt gets a signal aborted when it passes the
 * response timeout or `callerSignal` aborts; a failed attempt waits the delay the logic gives
 * (which throws, ending the loop, when the error is final or the retries are spent).
 */
async function retryLoop<T>(
  request: (signal: AbortSignal) => PromiseLike<T>,
  {
    policy,
    nextDelay,
    responseTimeout,
  }: Pick<ReturnType<typeof createRetryLogic>, "policy" | "nextDelay" | "responseTimeout">,
  callerSignal: AbortSignal | undefined,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const controller = new AbortController();
    const signal = callerSignal
      ? AbortSignal.any([callerSignal, controller.signal])
      : controller.signal;
    try {
      const started = Promise.resolve(request(signal));
      started.catch(() => undefined);
      return await within(started, policy.responseTimeoutMs, () => {
        const timeout = responseTimeout();
        controller.abort(timeout);
        return timeout;
      });
    } catch (error) {
      controller.abort(error);
      const delayMs = nextDelay(error, attempt, callerSignal);
      await policy.sleep(delayMs, callerSignal);
    }
  }
}
