import type { IncomingHttpHeaders, IncomingMessage, request as httpRequest } from "node:http";
import type { RequestOptions } from "node:https";

/** One HTTP request: a JSON body is given as text. */
export interface HttpRequest {
  readonly url: string;
  readonly method?: "GET" | "POST";
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
}

/** The answer to an {@link HttpRequest}: its head, and its body read once, as bytes or as text. */
export interface HttpResponse {
  readonly status: number;
  readonly statusText: string;
  /** Lower-case names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as it arrives. An abort or a broken connection makes the iteration throw. */
  readonly body: AsyncIterable<Uint8Array>;
  /** The whole body as UTF-8 text; a body past {@link MAX_TEXT_BYTES} rejects. */
  text(): Promise<string>;
  /** Stops reading: the body is not wanted (frees the connection). */
  cancel(): void;
}

/**
 * Sends HTTP requests. The providers that XZatoma implements itself (Ollama's `/api/*`) use
 * one instead of `fetch`: Node's `fetch` loads its bundled undici on first use, ~35-45 ms of
 * a start before the first request (docs/explanation/start-up-and-memory.md).
 */
export type HttpClient = (request: HttpRequest) => Promise<HttpResponse>;

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** The largest body `text()` reads: a JSON answer of a model server is far smaller. */
export const MAX_TEXT_BYTES = 32 * 1024 * 1024;

async function readText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes > MAX_TEXT_BYTES)
      throw new RangeError(`The answer is larger than ${MAX_TEXT_BYTES} bytes; it was not read.`);
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) record[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return record;
}

/**
 * The `http` or `https` module. Taken with `process.getBuiltinModule`, not imported: an ES
 * import of `node:http` reads every export of the module, and its `WebSocket`,
 * `CloseEvent` and `MessageEvent` getters load undici, the very cost this client avoids.
 */
function transportFor(protocol: string): { request: typeof httpRequest } {
  return protocol === "https:"
    ? process.getBuiltinModule("node:https")
    : process.getBuiltinModule("node:http");
}

/**
 * An {@link HttpClient} on `node:http` and `node:https`, with Node's default keep-alive
 * agents, which let the process exit while a connection waits for reuse. A failure to
 * connect rejects with Node's own error (`code` `ECONNREFUSED`, `ENOTFOUND`, ...); an abort
 * rejects with the signal's reason.
 */
export function createNodeHttpClient(): HttpClient {
  return async (request) => {
    const { signal } = request;
    if (signal?.aborted) throw abortReason(signal);
    const url = new URL(request.url);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`Cannot send a request to ${url.protocol} URLs: ${url.origin}`);
    }
    const transport = transportFor(url.protocol);
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined)
      headers["content-length"] = String(Buffer.byteLength(request.body));
    const options: RequestOptions = { method: request.method ?? "GET", headers };
    return new Promise<HttpResponse>((resolve, reject) => {
      const outgoing = transport.request(url, options);
      let incoming: IncomingMessage | undefined;
      const onAbort = () => {
        if (!signal) return;
        const reason = abortReason(signal) as Error;
        incoming?.destroy(reason);
        outgoing.destroy(reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const done = () => signal?.removeEventListener("abort", onAbort);
      // `on`, not `once`: a request destroyed after an earlier error emits another one.
      outgoing.on("error", (error) => {
        done();
        reject(error);
      });
      outgoing.once("response", (response) => {
        incoming = response;
        // Errors after this point reach the body's reader: destroy() ends its iteration.
        response.once("close", done);
        response.on("error", () => undefined);
        let read = false;
        const body: AsyncIterable<Uint8Array> = {
          [Symbol.asyncIterator]() {
            if (read) throw new TypeError("The response body was already read.");
            read = true;
            return response[Symbol.asyncIterator]();
          },
        };
        resolve({
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? "",
          headers: headerRecord(response.headers),
          body,
          text: () => readText(body),
          cancel: () => response.destroy(),
        });
      });
      outgoing.end(request.body);
    });
  };
}

/**
 * An {@link HttpClient} that sends through a `fetch` (an embedder's own, a test's), so the
 * `fetch` options of the Ollama functions keep working.
 */
export function fetchHttpClient(fetchImpl: typeof globalThis.fetch): HttpClient {
  return async (request) => {
    const response = await fetchImpl(request.url, {
      method: request.method ?? "GET",
      ...(request.headers ? { headers: { ...request.headers } } : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    const stream = response.body;
    let read = false;
    const body: AsyncIterable<Uint8Array> = {
      async *[Symbol.asyncIterator]() {
        if (read) throw new TypeError("The response body was already read.");
        read = true;
        if (!stream) return;
        const reader = stream.getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            yield value;
          }
        } finally {
          reader.releaseLock();
        }
      },
    };
    return {
      status: response.status,
      statusText: response.statusText,
      headers,
      body,
      text: () => readText(body),
      cancel: () => void stream?.cancel().catch(() => undefined),
    };
  };
}
