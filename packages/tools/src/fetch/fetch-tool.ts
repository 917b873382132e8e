import {
  defineTool,
  isXzatomaError,
  toolFailure,
  toolSuccess,
  type Tool,
  type ToolAssessment,
  type ToolResult,
} from "@xzatoma/core";
import { exfiltrationConcern, type SecretExposure } from "@xzatoma/safety";
import type { WorkspaceContext } from "../workspace-context.js";
import { FETCH_DESCRIPTION } from "./description.js";
import { createPageCache, type PageCache, type PageCacheOptions } from "./page-cache.js";
import { describeFetchFailure, labelUntrusted, mediaType, pageToText } from "./page-text.js";
import { builtinInput } from "../builtin-input.js";

/** The static judgement of a URL: `checkUrl` of `@xzatoma/safety` fits this shape. */
export interface UrlCheck {
  readonly verdict: "allow" | "confirm" | "block";
  readonly reason: string;
  /** The normalised URL, when it parsed. */
  readonly url?: string;
  /** The host is one of the user's allowed hosts. */
  readonly trustedHost?: boolean;
}

/** A response the guard let through: `GuardedResponse` of `@xzatoma/safety` fits this shape. */
export interface FetchedPage {
  readonly url: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly bytes: number;
  readonly truncated: boolean;
  readonly redirects: readonly string[];
}

/**
 * The guarded fetcher the tool uses: `createGuardedFetch` of `@xzatoma/safety` fits this
 * shape. `fetch` throws an error carrying code `URL_BLOCKED` when the guard refuses.
 */
export interface UrlFetcher {
  check(url: string): UrlCheck;
  fetch(
    url: string,
    init?: { readonly signal?: AbortSignal; readonly confirmed?: boolean },
  ): Promise<FetchedPage>;
}

/** Options of {@link createFetchTool}. */
export interface FetchToolOptions {
  /** Required: there is no fetch without the URL guard. */
  readonly fetcher: UrlFetcher;
  /** Responses larger than this are refused. Default 1 MiB (configure the guard the same). */
  readonly maxBytes?: number;
  /** Deadline for one fetch. Default 60 s. */
  readonly timeoutMs?: number;
  /** The session's page cache (24 h by default). */
  readonly cache?: PageCacheOptions;
}

/** 1 MiB. */
export const DEFAULT_FETCH_MAX_BYTES = 1024 * 1024;
/** 60 s. */
export const DEFAULT_FETCH_TIMEOUT_MS = 60_000;

/**
 * Judges a fetch before it runs, with the guard's static check: `block` never runs,
 * `confirm` (a port other than 80 or 443) asks a person first. Once the session may have
 * read a secret (`exposure`), a host the user has not allowed needs a person's yes in
 * every mode: the URL itself could carry the secret out.
 */
export function assessFetch(
  url: string,
  fetcher: Pick<UrlFetcher, "check">,
  exposure?: SecretExposure,
): ToolAssessment {
  const decision = fetcher.check(url);
  const target = decision.url ?? url.slice(0, 200);
  if (decision.verdict === "block") {
    return { verdict: "block", reason: `The URL guard refuses ${target}: ${decision.reason}.` };
  }
  const leak = exposure
    ? exfiltrationConcern(exposure, target, decision.trustedHost === true)
    : undefined;
  if (leak !== undefined) {
    return {
      verdict: "confirm",
      requiresPerson: true,
      reason: `Fetch ${target}: ${leak}.`,
      summary: `GET ${target}`,
    };
  }
  return {
    verdict: decision.verdict,
    reason: `Fetch ${target}: ${decision.reason}.`,
    summary: `GET ${target}`,
  };
}

function describeRefusal(error: Error & { code: string }, url: string, maxBytes: number): string {
  const refusal = (error as { refusal?: unknown }).refusal;
  if (refusal === "too-large") {
    return `The response from ${url} is larger than ${maxBytes} bytes, so it was not read. Fetch a smaller or more specific page.`;
  }
  if (refusal === "timeout") {
    return `${url} did not answer completely in time, so the request was stopped. Try again later or fetch another page.`;
  }
  return `${error.message}. The URL guard judges where a URL really connects, so other spellings, redirects or IP forms of it are refused too; do not retry, continue without it or ask the user.`;
}

async function render(page: FetchedPage): Promise<ToolResult> {
  const converted = await pageToText(page.contentType, page.body);
  if (converted.kind === "binary") {
    const type = converted.mediaType || "unlabelled binary";
    return toolFailure(
      `${page.url} returned ${type} content, which is binary; fetch reads HTML, plain text and JSON only.`,
    );
  }
  return toolSuccess(labelUntrusted(page.url, converted.text), {
    url: page.url,
    status: page.status,
    contentType: mediaType(page.contentType),
    bytes: page.bytes,
    redirects: page.redirects.length,
    cached: false,
  });
}

/**
 * The `fetch` tool: GETs a URL through the URL guard and returns its text, labelled as
 * untrusted. It runs after the registry's approval step, so a `confirm` URL that reaches
 * `execute` was approved.
 */
export function createFetchTool(workspace: WorkspaceContext, options: FetchToolOptions): Tool {
  const { fetcher } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_FETCH_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const cache: PageCache = createPageCache(options.cache);
  return defineTool({
    name: "fetch",
    description: FETCH_DESCRIPTION,
    ...builtinInput("fetch"),
    access: "network",
    // Past the tool's own deadline, so its message is the one the model reads.
    timeoutMs: timeoutMs + 5_000,
    assess: ({ url }) => assessFetch(url, fetcher, workspace.exposure),
    async execute({ url }, context) {
      const decision = fetcher.check(url);
      if (decision.verdict === "block" || decision.url === undefined) {
        return toolFailure(`Refused: ${decision.reason}. Do not retry this URL.`, {
          refused: true,
        });
      }
      const cached = cache.get(decision.url);
      if (cached !== undefined) {
        return toolSuccess(cached.output, { ...cached.metadata, cached: true });
      }
      const deadline = AbortSignal.timeout(timeoutMs);
      let page: FetchedPage;
      try {
        page = await fetcher.fetch(decision.url, {
          signal: AbortSignal.any([context.signal, deadline]),
          confirmed: true,
        });
      } catch (error) {
        if (isXzatomaError(error) && error.code === "URL_BLOCKED") {
          return toolFailure(describeRefusal(error, decision.url, maxBytes), { refused: true });
        }
        if (deadline.aborted) {
          return toolFailure(`${decision.url} did not answer within ${timeoutMs / 1000} s.`);
        }
        return toolFailure(`Could not fetch ${decision.url}: ${describeFetchFailure(error)}`);
      }
      if (page.bytes > maxBytes || page.truncated) {
        return toolFailure(
          `The response from ${page.url} is larger than ${maxBytes} bytes, so it was not read. Fetch a smaller or more specific page.`,
        );
      }
      if (page.status >= 400) {
        return toolFailure(`${page.url} answered HTTP ${page.status}.`, { status: page.status });
      }
      const result = await render(page);
      if (result.success)
        cache.set(decision.url, { output: result.output, metadata: result.metadata });
      return result;
    },
  });
}
