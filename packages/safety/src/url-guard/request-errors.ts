/**
 * One deadline for a whole guarded request, and the translation of what undici throws
 * into what the caller should see: a refusal, the caller's own abort, or a plain failure.
 */
import { UrlBlockedError } from "./url-blocked-error.js";

/** A running deadline. */
export interface Deadline {
  /** Aborts when the deadline passes or the outer signal aborts. */
  readonly signal: AbortSignal;
  /** True once the deadline itself (not the outer signal) fired. */
  readonly expired: boolean;
  dispose(): void;
}

/** Starts a deadline of `timeoutMs` that also follows `outer`. */
export function startDeadline(timeoutMs: number, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`deadline of ${timeoutMs} ms passed`));
  }, timeoutMs);
  const onOuter = (): void => {
    controller.abort(outer?.reason);
  };
  if (outer?.aborted) onOuter();
  else outer?.addEventListener("abort", onOuter, { once: true });
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuter);
    },
  };
}

/** The errors along a `cause` chain, outermost first (AggregateError members included). */
function causes(error: unknown): unknown[] {
  const seen: unknown[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.length < 20) {
    const next = queue.shift();
    if (next === undefined || next === null || seen.includes(next)) continue;
    seen.push(next);
    if (next instanceof AggregateError) queue.push(...(next.errors as unknown[]));
    if (next instanceof Error) queue.push(next.cause);
  }
  return seen;
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

/** Response framing errors: the server lied about the body (Content-Length, chunking). */
function isMalformedResponse(code: string): boolean {
  return code.startsWith("HPE_") || code === "UND_ERR_RES_CONTENT_LENGTH_MISMATCH";
}

/**
 * What a failed guarded request throws: the caller's abort reason when it aborted, the
 * guard's UrlBlockedError when one is anywhere in the chain, a `timeout` or
 * `malformed-response` refusal, or an Error naming the URL and the root cause.
 */
export function toFetchError(
  error: unknown,
  context: { url: string; deadline: Deadline; timeoutMs: number; outer: AbortSignal | undefined },
): unknown {
  if (context.outer?.aborted === true) return context.outer.reason;
  const chain = causes(error);
  const blocked = chain.find((entry) => entry instanceof UrlBlockedError);
  if (blocked !== undefined) return blocked;
  if (context.deadline.expired) {
    const seconds = context.timeoutMs / 1000;
    return new UrlBlockedError(
      `the request took longer than ${seconds} s (headers and body together) and was stopped`,
      context.url,
      "timeout",
    );
  }
  const malformed = chain.find((entry) => isMalformedResponse(codeOf(entry)));
  if (malformed instanceof Error) {
    return new UrlBlockedError(
      `the server sent a malformed response (${malformed.message}); it was not read`,
      context.url,
      "malformed-response",
    );
  }
  const root = chain.at(-1);
  const detail = root instanceof Error ? root.message : String(root);
  return new Error(`Could not fetch ${context.url}: ${detail}`, { cause: error });
}
