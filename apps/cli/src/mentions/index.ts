export {
  formatLineRange,
  mentionLabel,
  type FileMention,
  type GrepMention,
  type LineRange,
  type Mention,
  type MentionPosition,
  type SearchMention,
  type UrlMention,
} from "./mention.js";
export { parseMentions } from "./parse-mentions.js";
export {
  createMentionLoader,
  describeMentionResult,
  type FailedMention,
  type LoadedMention,
  type MentionLoader,
  type MentionLoaderDeps,
  type MentionLoadResult,
} from "./mention-loader.js";
export type { FetchedUrl, FetchUrl } from "./url-mention.js";
export {
  createWorkspaceSearch,
  DEFAULT_SKIPPED_DIRECTORIES,
  listWorkspaceFiles,
  type MentionSearch,
  type SearchMatch,
  type SearchRequest,
  type SearchResult,
  type WorkspaceSearchOptions,
} from "./workspace-search.js";
