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

/** The head and text of an HTTP answer, however it was received. */
export interface HttpAnswer {
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Record<string, string>;
  readonly text: string;
}

/**
 * Parses a JSON answer. A non-2xx status or a body that is not JSON becomes an
 * `APICallError` (status, headers and body kept), so retries and error wording treat it
 * exactly like a failure inside an AI SDK provider.
 */
export function parseJsonAnswer(answer: HttpAnswer): unknown {
  const { url, status, statusText, headers, text } = answer;
  if (status < 200 || status > 299) {
    const location = status >= 300 && status < 400 ? headers["location"] : undefined;
    // Redirects are not followed: a request, and a key it carries, goes only to the
    // address the user configured.
    const message = location
      ? `It redirects to ${location}; XZatoma does not follow redirects, so use that address.`
      : (errorBodyMessage(text) ?? statusText);
    throw new APICallError({
      message: message === "" ? `HTTP ${status}` : message,
      url,
      requestBodyValues: undefined,
      statusCode: status,
      responseHeaders: headers,
      responseBody: text,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new APICallError({
      message: `The answer from ${new URL(url).pathname} is not JSON.`,
      url,
      requestBodyValues: undefined,
      statusCode: status,
      responseHeaders: headers,
      responseBody: text.slice(0, 2000),
      cause: error,
      isRetryable: false,
    });
  }
}

/**
 * Sends a request and parses a JSON answer ({@link parseJsonAnswer}). Network failures are
 * thrown as `fetch` threw them.
 */
export async function requestJson(
  fetchImpl: Fetch,
  url: string,
  init: RequestInit,
): Promise<{ readonly value: unknown; readonly response: Response }> {
  const response = await fetchImpl(url, init);
  const text = await response.text();
  const value = parseJsonAnswer({
    url,
    status: response.status,
    statusText: response.statusText,
    headers: headerRecord(response.headers),
    text,
  });
  return { value, response };
}
