import { APICallError } from "@ai-sdk/provider";

type Fetch = typeof globalThis.fetch;

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, key) => (record[key] = value));
  return record;
}

/** The message a JSON error body carries: `error.message`, `error`, `message` or `error_description`. */
export function errorBodyMessage(body: string): string | undefined {
  try {
    const value = JSON.parse(body) as Record<string, unknown>;
    const error = value["error"];
    if (error && typeof error === "object") {
      const message = (error as Record<string, unknown>)["message"];
      if (typeof message === "string") return message;
    }
    for (const key of ["message", "error_description", "error", "detail"]) {
      const candidate = value[key];
      if (typeof candidate === "string") return candidate;
    }
  } catch {
    // Not JSON.
  }
  const trimmed = body.trim();
  return trimmed === "" ? undefined : trimmed.slice(0, 300);
}

/**
 * Sends a request and parses a JSON answer. A non-2xx status or a body that is not JSON
 * becomes an `APICallError` (status, headers and body kept), so retries and error wording
 * treat it exactly like a failure inside an AI SDK provider. Network failures are thrown
 * as `fetch` threw them.
 */
export async function requestJson(
  fetchImpl: Fetch,
  url: string,
  init: RequestInit,
): Promise<{ readonly value: unknown; readonly response: Response }> {
  const response = await fetchImpl(url, init);
  const text = await response.text();
  if (!response.ok) {
    const message = errorBodyMessage(text) ?? response.statusText;
    throw new APICallError({
      message: message === "" ? `HTTP ${response.status}` : message,
      url,
      requestBodyValues: undefined,
      statusCode: response.status,
      responseHeaders: headerRecord(response.headers),
      responseBody: text,
    });
  }
  try {
    return { value: JSON.parse(text) as unknown, response };
  } catch (error) {
    throw new APICallError({
      message: `The answer from ${new URL(url).pathname} is not JSON.`,
      url,
      requestBodyValues: undefined,
      statusCode: response.status,
      responseHeaders: headerRecord(response.headers),
      responseBody: text.slice(0, 2000),
      cause: error,
      isRetryable: false,
    });
  }
}
