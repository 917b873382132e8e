/** Where a mention sits in the text it was parsed from. */
export interface MentionPosition {
  /** The mention exactly as written, `@` included. */
  readonly raw: string;
  /** Offset of the `@`. */
  readonly start: number;
  /** Offset just past the mention. */
  readonly end: number;
}

/** `#L10` (start only, `end` = start), `#L10-20`, or open-ended `#L10-` (`end` undefined). */
export interface LineRange {
  readonly start: number;
  readonly end?: number;
}

/** `@path`, `@"path with spaces"`, `@path#L10-20`, `@path#L10-`. */
export interface FileMention extends MentionPosition {
  readonly kind: "file";
  readonly path: string;
  readonly lines?: LineRange;
}

/** `@search:"text"`: literal, case-insensitive text search over the workspace. */
export interface SearchMention extends MentionPosition {
  readonly kind: "search";
  readonly query: string;
}

/** `@grep:"regex"`: regular-expression search over the workspace. */
export interface GrepMention extends MentionPosition {
  readonly kind: "grep";
  readonly pattern: string;
}

/** `@url:https://...`: a web page, fetched through the caller's guarded fetch. */
export interface UrlMention extends MentionPosition {
  readonly kind: "url";
  readonly url: string;
}

/** `@mcp:server/uri`: a resource of a configured MCP server. */
export interface McpMention extends MentionPosition {
  readonly kind: "mcp";
  readonly server: string;
  readonly uri: string;
}

/** One `@mention` in chat input or a `--prompt`. */
export type Mention = FileMention | SearchMention | GrepMention | UrlMention | McpMention;

function quote(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** `#L10-20`, `#L10-` or `#L10`. */
export function formatLineRange(lines: LineRange): string {
  if (lines.end === undefined) return `#L${lines.start}-`;
  return lines.end === lines.start ? `#L${lines.start}` : `#L${lines.start}-${lines.end}`;
}

/**
 * The mention in its canonical written form, for the UI and placeholders:
 * `@src/a.ts#L10-20`, `@search:"TODO"`, `@url:https://example.com`, `@mcp:docs/file:///a.md`.
 */
export function mentionLabel(mention: Mention): string {
  switch (mention.kind) {
    case "file": {
      const path = /^[^\s"]+$/.test(mention.path) ? mention.path : quote(mention.path);
      return `@${path}${mention.lines ? formatLineRange(mention.lines) : ""}`;
    }
    case "search":
      return `@search:${quote(mention.query)}`;
    case "grep":
      return `@grep:${quote(mention.pattern)}`;
    case "url":
      return `@url:${mention.url}`;
    case "mcp":
      return `@mcp:${mention.server}/${mention.uri}`;
  }
}
