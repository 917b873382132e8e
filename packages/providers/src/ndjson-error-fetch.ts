import { ProviderError } from "@xzatoma/core";

type Fetch = typeof globalThis.fetch;

/**
 * Ollama reports a failure in the middle of a stream as an `{"error": "..."}` line with
 * HTTP 200. `ollama-ai-provider-v2` logs such a line to the console and drops it, so the
 * run would end as an empty answer. This fetch wrapper turns that line into a stream
 * error carrying a {@link ProviderError}, which the agent reports with its message.
 */
export function createNdjsonErrorFetch(
  providerName: string,
  inner: Fetch = globalThis.fetch,
): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !response.body || !type.includes("ndjson")) return response;
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let pending = "";
    const inspect = (
      line: string,
      controller: TransformStreamDefaultController<Uint8Array>,
    ): boolean => {
      if (line.trim() === "") return true;
      try {
        const value = JSON.parse(line) as { error?: unknown; done?: unknown };
        if (typeof value.error === "string" && value.done === undefined) {
          controller.error(new ProviderError(`${providerName} reported an error: ${value.error}`));
          return false;
        }
      } catch {
        // Not JSON: let the provider report it.
      }
      controller.enqueue(encoder.encode(`${line}\n`));
      return true;
    };
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          pending += decoder.decode(chunk, { stream: true });
          let newline = pending.indexOf("\n");
          while (newline !== -1) {
            const line = pending.slice(0, newline);
            pending = pending.slice(newline + 1);
            if (!inspect(line, controller)) return;
            newline = pending.indexOf("\n");
          }
        },
        flush(controller) {
          pending += decoder.decode();
          if (pending !== "") inspect(pending, controller);
        },
      }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
