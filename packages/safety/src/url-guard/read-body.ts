/**
 * Reads a response body under a byte cap, counting the bytes actually read after
 * decompression: Content-Length is never trusted and a gzip bomb stops at the cap.
 */
import { UrlBlockedError } from "./url-blocked-error.js";

/** What to do when the body passes the cap. */
export type ByteCapAction = "error" | "truncate";

/** A body read under the cap. */
export interface CappedBody {
  readonly bytes: Uint8Array;
  readonly truncated: boolean;
}

/** Rejects as soon as `signal` aborts, so a stalled read cannot outlive the deadline. */
function whenAborted(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let dispose = (): void => undefined;
  const promise = new Promise<never>((_, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      reject(signal.reason as Error);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    dispose = () => {
      signal.removeEventListener("abort", onAbort);
    };
  });
  promise.catch(() => undefined);
  return { promise, dispose };
}

/**
 * Reads `body` until it ends, `maxBytes` decoded bytes have been read, or `signal`
 * aborts. Past the cap it cancels the stream and either throws `too-large` or returns the
 * first `maxBytes` bytes marked truncated.
 */
export async function readCappedBody(
  body: ReadableStream<Uint8Array> | null,
  options: { maxBytes: number; onLimit: ByteCapAction; signal: AbortSignal; url: string },
): Promise<CappedBody> {
  if (body === null) return { bytes: new Uint8Array(0), truncated: false };
  const reader = body.getReader();
  const aborted = whenAborted(options.signal);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted.promise]);
      if (done) break;
      if (total + value.byteLength > options.maxBytes) {
        reader.cancel().catch(() => undefined);
        if (options.onLimit === "error") {
          throw new UrlBlockedError(
            `the response is larger than ${options.maxBytes} bytes (counted after decompression); reading stopped`,
            options.url,
            "too-large",
          );
        }
        chunks.push(value.subarray(0, options.maxBytes - total));
        return { bytes: Buffer.concat(chunks), truncated: true };
      }
      total += value.byteLength;
      chunks.push(value);
    }
    return { bytes: Buffer.concat(chunks), truncated: false };
  } catch (error) {
    reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    aborted.dispose();
    reader.releaseLock();
  }
}

/** Decodes a body with the charset its Content-Type names, UTF-8 otherwise. */
export function decodeBody(bytes: Uint8Array, contentType: string): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    // An unknown charset label: read it as UTF-8 (invalid bytes become U+FFFD).
    return new TextDecoder("utf-8").decode(bytes);
  }
}
