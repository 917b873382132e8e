import { describeError } from "@xzatoma/core";
import type { PathGuard, SecretExposure } from "@xzatoma/safety";
import { createContentScreen, secretsNote } from "@xzatoma/tools";
import { contextBlock, cutToBytes } from "./context-block.js";
import { loadFileMention, type CachedFile, type MentionOutcome } from "./file-mention.js";
import { formatLineRange, mentionLabel, type Mention } from "./mention.js";
import { parseMentions } from "./parse-mentions.js";
import { loadUrlMention, type FetchedUrl, type FetchUrl } from "./url-mention.js";
import { createWorkspaceSearch, type MentionSearch } from "./workspace-search.js";

/** What the loader uses; everything that touches the outside world is injected. */
export interface MentionLoaderDeps {
  /** The workspace path guard (`createWorkspaceContext({ root }).pathGuard`): files are read through it only. */
  readonly pathGuard: PathGuard;
  /**
   * The person stands behind the mentions they type (chat; `run` with `--allow-dangerous`):
   * secret-looking files load then, and are refused otherwise. Default false.
   */
  readonly confirmed?: boolean;
  /** The session's secret-exposure tracker, shared with the tools. */
  readonly exposure?: SecretExposure;
  /** The SSRF-guarded fetch. Without it, URL mentions fail with a clear reason. */
  readonly fetchUrl?: FetchUrl;
  /**
   * Reads a resource of a configured MCP server (`runtime.mcp.readResource`). Without it,
   * `@mcp:` mentions fail with a clear reason.
   */
  readonly readMcpResource?: (
    server: string,
    uri: string,
  ) => Promise<{ readonly text: string; readonly mimeTypes: readonly string[] }>;
  /** Workspace search for `@search` and `@grep`. Default: {@link createWorkspaceSearch} over `pathGuard`. */
  readonly search?: MentionSearch;
  /** The clock for the URL cache, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
  /** Largest file a mention includes. Default 10 MiB (`agent.mentions.max_file_size`). */
  readonly maxFileBytes?: number;
  /** Most of a fetched page included. Default 1 MiB (`agent.fetch.max_response_size`). */
  readonly maxUrlBytes?: number;
  /** How long a fetched page is reused. Default 24 hours (`agent.mentions.url_cache_ttl_seconds`). */
  readonly urlCacheTtlMs?: number;
  /** URL mentions per message; more fail. Default 10 (`agent.mentions.max_urls_per_request`). */
  readonly maxUrlsPerRequest?: number;
  /** Matching lines per search. Default 50. */
  readonly maxSearchResults?: number;
}

/** A mention whose content was included. */
export interface LoadedMention {
  readonly mention: Mention;
  /** `@README.md`, `@url:https://...`. */
  readonly label: string;
  /** `42 lines`, `lines 10-20`, `3 matches`, `5120 bytes, text/html`. */
  readonly detail: string;
  /** Served from the session cache. */
  readonly cached: boolean;
}

/** A mention that could not be loaded; the prompt holds a placeholder in its place. */
export interface FailedMention {
  readonly mention: Mention;
  readonly label: string;
  /** `file not found`, `it is outside the workspace`, ... */
  readonly reason: string;
  /** What the user can do instead. */
  readonly suggestion: string;
}

/** The prompt to send and what happened to each mention (each distinct mention once). */
export interface MentionLoadResult {
  /**
   * The user's text (failed mentions replaced by `[@x could not be loaded: reason; suggestion]`)
   * followed by one delimited context block per loaded mention.
   */
  readonly prompt: string;
  readonly loaded: readonly LoadedMention[];
  readonly failed: readonly FailedMention[];
}

/** Loads the mentions of chat messages; one per chat session, as it holds the caches. */
export interface MentionLoader {
  /** Parses `text`, loads every mention and builds the augmented prompt. Never rejects for a mention. */
  load(text: string): Promise<MentionLoadResult>;
  /** Forgets cached files and pages. */
  clearCache(): void;
}

const DEFAULTS = {
  maxFileBytes: 10 * 1024 * 1024,
  maxUrlBytes: 1024 * 1024,
  urlCacheTtlMs: 24 * 60 * 60 * 1000,
  maxUrlsPerRequest: 10,
  maxSearchResults: 50,
};

function fail(reason: string, suggestion: string): MentionOutcome {
  return { ok: false, reason, suggestion };
}

function mentionKey(mention: Mention): string {
  switch (mention.kind) {
    case "file":
      return `file\u0000${mention.path}\u0000${mention.lines ? formatLineRange(mention.lines) : ""}`;
    case "search":
      return `search\u0000${mention.query}`;
    case "grep":
      return `grep\u0000${mention.pattern}`;
    case "url":
      return `url\u0000${mention.url}`;
    case "mcp":
      return `mcp\u0000${mention.server}\u0000${mention.uri}`;
  }
}

async function loadSearch(
  mode: "literal" | "regex",
  pattern: string,
  search: MentionSearch,
  maxResults: number,
  exposure: SecretExposure | undefined,
): Promise<MentionOutcome> {
  if (mode === "regex") {
    try {
      new RegExp(pattern);
    } catch (error) {
      return fail(
        `it is not a valid regular expression (${describeError(error)})`,
        `fix the pattern, or use @search:"text" for plain text`,
      );
    }
  }
  const result = await search({ mode, pattern, maxResults });
  const count = result.matches.length;
  const what =
    mode === "literal"
      ? `Search for "${pattern}" (literal text, case-insensitive)`
      : `Grep for /${pattern}/ (regular expression)`;
  const shown = result.truncated ? ` (first ${count} shown; more exist)` : "";
  const detail = count === 0 ? "no matches" : `${count} match${count === 1 ? "" : "es"}`;
  // Matching lines are file content: the values the redactor finds are hidden.
  const content = createContentScreen(
    exposure,
    `the results of @${mode === "literal" ? "search" : "grep"}`,
  );
  const texts = content.screen(result.matches.map((match) => match.text).join("\n")).split("\n");
  const body = result.matches.map(
    (match, index) => `${match.path}:${match.line}: ${texts[index] ?? ""}`,
  );
  const note = content.hidden > 0 ? secretsNote(content.hidden) : "";
  return {
    ok: true,
    block: `${contextBlock(`${what}: ${detail}${shown}`, body.join("\n") || "(no matches)")}${note}`,
    detail: `${detail}${result.truncated ? "+" : ""}`,
    cached: false,
  };
}

async function loadMcpMention(
  server: string,
  uri: string,
  read: MentionLoaderDeps["readMcpResource"],
  maxBytes: number,
  exposure: SecretExposure | undefined,
): Promise<MentionOutcome> {
  if (!read) return fail("no MCP servers are configured", "add the server under mcp.servers");
  let resource: Awaited<ReturnType<NonNullable<typeof read>>>;
  try {
    resource = await read(server, uri);
  } catch (error) {
    return fail(describeError(error), "check the server with /mcp and the resource's URI");
  }
  const bytes = Buffer.byteLength(resource.text, "utf8");
  const shown = cutToBytes(resource.text, maxBytes);
  // A resource may be a file on the server's side: the values the redactor finds are hidden.
  const content = createContentScreen(exposure, `the MCP resource ${uri}`);
  const screened = content.screen(shown.text);
  const cut = shown.cut ? `\n[cut at ${maxBytes} of ${bytes} bytes]` : "";
  const text = `${screened}${cut}${content.hidden > 0 ? secretsNote(content.hidden) : ""}`;
  const type = resource.mimeTypes.length > 0 ? `, ${resource.mimeTypes.join(", ")}` : "";
  return {
    ok: true,
    block: contextBlock(`MCP resource ${uri} of the server '${server}'`, text),
    detail: `${bytes} bytes${type}`,
    cached: false,
  };
}

const CONTEXT_HEADER = "\n\n---\nContext from the @mentions above, loaded by XZatoma:\n\n";

/**
 * Creates the loader of one chat session: files through the workspace path guard
 * (cached until they change), searches through `search`, URLs through the injected
 * `fetchUrl` (cached for 24 hours by `now`).
 *
 * @example
 * const mentions = createMentionLoader({ pathGuard: workspace.pathGuard, fetchUrl });
 * const { prompt, loaded, failed } = await mentions.load("Review @src/a.ts#L1-40");
 */
export function createMentionLoader(deps: MentionLoaderDeps): MentionLoader {
  const settings = { ...DEFAULTS, ...definedOnly(deps) };
  const search = deps.search ?? createWorkspaceSearch({ pathGuard: deps.pathGuard });
  const files = new Map<string, CachedFile>();
  const pages = new Map<string, { readonly fetchedAt: number; readonly page: FetchedUrl }>();
  const now = deps.now ?? Date.now;

  async function loadOne(mention: Mention, urlIndex: number): Promise<MentionOutcome> {
    switch (mention.kind) {
      case "file":
        return loadFileMention(mention, {
          pathGuard: deps.pathGuard,
          maxFileBytes: settings.maxFileBytes,
          cache: files,
          confirmed: deps.confirmed === true,
          ...(deps.exposure ? { exposure: deps.exposure } : {}),
        });
      case "search":
        return loadSearch(
          "literal",
          mention.query,
          search,
          settings.maxSearchResults,
          deps.exposure,
        );
      case "grep":
        return loadSearch(
          "regex",
          mention.pattern,
          search,
          settings.maxSearchResults,
          deps.exposure,
        );
      case "url":
        if (urlIndex >= settings.maxUrlsPerRequest) {
          return fail(
            `too many URL mentions in one message (the limit is ${settings.maxUrlsPerRequest})`,
            "send the rest in another message",
          );
        }
        return loadUrlMention(mention.url, {
          fetchUrl: deps.fetchUrl,
          cache: pages,
          now,
          ttlMs: settings.urlCacheTtlMs,
          maxBytes: settings.maxUrlBytes,
        });
      case "mcp":
        return loadMcpMention(
          mention.server,
          mention.uri,
          deps.readMcpResource,
          settings.maxFileBytes,
          deps.exposure,
        );
    }
  }

  async function load(text: string): Promise<MentionLoadResult> {
    const mentions = parseMentions(text);
    const unique = new Map<string, Mention>();
    for (const mention of mentions) {
      const key = mentionKey(mention);
      if (!unique.has(key)) unique.set(key, mention);
    }
    let urls = 0;
    const outcomes = new Map<string, MentionOutcome>();
    await Promise.all(
      [...unique].map(async ([key, mention]) => {
        const urlIndex = mention.kind === "url" ? urls++ : 0;
        let outcome: MentionOutcome;
        try {
          outcome = await loadOne(mention, urlIndex);
        } catch (error) {
          outcome = fail(`it could not be read (${describeError(error)})`, "try again");
        }
        outcomes.set(key, outcome);
      }),
    );

    const loaded: LoadedMention[] = [];
    const failed: FailedMention[] = [];
    const blocks: string[] = [];
    for (const [key, mention] of unique) {
      const outcome = outcomes.get(key);
      if (outcome === undefined) continue;
      const label = mentionLabel(mention);
      if (outcome.ok) {
        loaded.push({ mention, label, detail: outcome.detail, cached: outcome.cached });
        blocks.push(outcome.block);
      } else {
        failed.push({ mention, label, reason: outcome.reason, suggestion: outcome.suggestion });
      }
    }

    let prompt = "";
    let cursor = 0;
    for (const mention of mentions) {
      const outcome = outcomes.get(mentionKey(mention));
      if (outcome === undefined || outcome.ok) continue;
      prompt += `${text.slice(cursor, mention.start)}[${mentionLabel(mention)} could not be loaded: ${outcome.reason}; ${outcome.suggestion}]`;
      cursor = mention.end;
    }
    prompt += text.slice(cursor);
    if (blocks.length > 0) prompt += `${CONTEXT_HEADER}${blocks.join("\n\n")}`;
    return { prompt, loaded, failed };
  }

  return {
    load,
    clearCache() {
      files.clear();
      pages.clear();
    },
  };
}

function definedOnly(deps: MentionLoaderDeps): Partial<typeof DEFAULTS> {
  const picked: Partial<typeof DEFAULTS> = {};
  for (const key of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) {
    const value = deps[key];
    if (value !== undefined) picked[key] = value;
  }
  return picked;
}

/**
 * Lines for the UI: `Loaded 2 mentions: @README.md, @url:https://...` and one line per
 * failure (`Could not load @src/missing.ts: file not found; check the path ...`).
 */
export function describeMentionResult(
  result: Pick<MentionLoadResult, "loaded" | "failed">,
): string[] {
  const lines: string[] = [];
  const count = result.loaded.length;
  if (count > 0) {
    lines.push(
      `Loaded ${count} mention${count === 1 ? "" : "s"}: ${result.loaded.map((entry) => entry.label).join(", ")}`,
    );
  }
  for (const entry of result.failed) {
    lines.push(`Could not load ${entry.label}: ${entry.reason}; ${entry.suggestion}`);
  }
  return lines;
}
