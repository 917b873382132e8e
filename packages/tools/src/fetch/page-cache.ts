import type { ToolMetadata } from "@xzatoma/core";

/** A fetched page as the fetch tool returns it. */
export interface CachedPage {
  readonly output: string;
  readonly metadata: ToolMetadata;
}

/** Options of {@link createPageCache}. */
export interface PageCacheOptions {
  /** How long a page stays fresh, in ms. Default 24 h. */
  readonly ttlMs?: number;
  /** Pages kept at most; the oldest goes first. Default 100. */
  readonly maxEntries?: number;
  /** The clock, in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

/** An in-memory page cache keyed by normalised URL, for one session. */
export interface PageCache {
  get(url: string): CachedPage | undefined;
  set(url: string, page: CachedPage): void;
}

/** 24 hours. */
export const DEFAULT_PAGE_TTL_MS = 24 * 60 * 60 * 1000;

/** Creates a {@link PageCache}. */
export function createPageCache(options: PageCacheOptions = {}): PageCache {
  const ttlMs = options.ttlMs ?? DEFAULT_PAGE_TTL_MS;
  const maxEntries = options.maxEntries ?? 100;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { page: CachedPage; storedAt: number }>();
  return {
    get(url) {
      const entry = entries.get(url);
      if (entry === undefined) return undefined;
      if (now() - entry.storedAt >= ttlMs) {
        entries.delete(url);
        return undefined;
      }
      return entry.page;
    },
    set(url, page) {
      entries.delete(url);
      entries.set(url, { page, storedAt: now() });
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
      }
    },
  };
}
