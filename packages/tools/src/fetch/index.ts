export {
  assessFetch,
  createFetchTool,
  DEFAULT_FETCH_MAX_BYTES,
  DEFAULT_FETCH_TIMEOUT_MS,
  type FetchedPage,
  type FetchToolOptions,
  type UrlCheck,
  type UrlFetcher,
} from "./fetch-tool.js";
export { FETCH_DESCRIPTION } from "./description.js";
export {
  createPageCache,
  DEFAULT_PAGE_TTL_MS,
  type CachedPage,
  type PageCache,
  type PageCacheOptions,
} from "./page-cache.js";
export {
  classifyPage,
  describeFetchFailure,
  HTML_CONVERSION_TIMEOUT_MS,
  htmlToText,
  labelUntrusted,
  mediaType,
  pageToText,
  type PageKind,
  type PageText,
} from "./page-text.js";
