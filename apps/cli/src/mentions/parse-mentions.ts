import type { LineRange, Mention } from "./mention.js";

/** Characters that may come right before an `@` that starts a mention (besides whitespace). */
const OPENERS = new Set(["(", "[", "{", "<", '"', "'"]);
/** Characters of an unquoted path. */
const PATH_RUN = /^[\p{L}\p{N}_\-./~+@]+/u;
/** Characters of an unquoted search term or URL: anything up to whitespace or a quote. */
const TOKEN_RUN = /^[^\s<>"'`]+/;
/** Punctuation that ends a sentence rather than a search term or URL. */
const TRAILING_PUNCTUATION = ".,;:!?'\")]}>";
/** `#L10`, `#L10-20`, `#L10-L20`, `#L10-`. */
const LINE_RANGE = /^#L(\d+)(?:(-)L?(\d+)?)?/;

/** [start, end) ranges of fenced code blocks and inline code spans, where `@` means nothing. */
function codeRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let offset = 0;
  let open: { marker: string; start: number } | undefined;
  for (const line of text.split("\n")) {
    const fence = /^[ \t]*(`{3,}|~{3,})/.exec(line)?.[1];
    if (open !== undefined) {
      if (
        fence !== undefined &&
        fence[0] === open.marker[0] &&
        fence.length >= open.marker.length
      ) {
        ranges.push([open.start, offset + line.length]);
        open = undefined;
      }
    } else if (fence !== undefined) {
      open = { marker: fence, start: offset };
    }
    offset += line.length + 1;
  }
  if (open !== undefined) ranges.push([open.start, text.length]);
  const inline = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
  for (const match of text.matchAll(inline)) {
    ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

/** Reads a quoted string (`"..."` or `'...'`, `\"` and `\\` escaped) at the start of `rest`. */
function readQuoted(rest: string): { value: string; length: number } | undefined {
  const quote = rest[0];
  if (quote !== '"' && quote !== "'") return undefined;
  let value = "";
  for (let index = 1; index < rest.length; index++) {
    const char = rest[index];
    if (char === "\\" && (rest[index + 1] === quote || rest[index + 1] === "\\")) {
      value += rest[index + 1];
      index++;
    } else if (char === quote) {
      return { value, length: index + 1 };
    } else if (char === "\n") {
      return undefined;
    } else {
      value += char;
    }
  }
  return undefined;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/**
 * An unquoted token at the start of `rest`, without trailing sentence punctuation; a
 * closing parenthesis that balances one inside the token stays (`.../Foo_(bar)`).
 */
function readToken(rest: string, run: RegExp): string {
  let token = run.exec(rest)?.[0] ?? "";
  while (token !== "" && TRAILING_PUNCTUATION.includes(token.slice(-1))) {
    if (token.endsWith(")") && count(token, "(") >= count(token, ")")) break;
    token = token.slice(0, -1);
  }
  return token;
}

/** A mention without its position: each kind's own fields. */
type MentionFields = Mention extends infer M
  ? M extends Mention
    ? Omit<M, "raw" | "start" | "end">
    : never
  : never;
type Parsed = { mention: MentionFields; length: number } | undefined;

function parseQuery(rest: string, kind: "search" | "grep"): Parsed {
  const body = rest.slice(kind.length + 1);
  const quoted = readQuoted(body);
  const value = quoted?.value ?? (/^["']/.test(body) ? "" : readToken(body, TOKEN_RUN));
  if (value.trim() === "") return undefined;
  const length = kind.length + 1 + (quoted?.length ?? value.length);
  return kind === "search"
    ? { mention: { kind, query: value }, length }
    : { mention: { kind, pattern: value }, length };
}

function parseFile(rest: string): Parsed {
  const quoted = rest.startsWith('"') ? readQuoted(rest) : undefined;
  let path: string;
  let length: number;
  if (quoted !== undefined) {
    path = quoted.value;
    length = quoted.length;
  } else {
    const run = PATH_RUN.exec(rest)?.[0] ?? "";
    const range = LINE_RANGE.exec(rest.slice(run.length));
    // A range right after the path keeps the path whole; otherwise a final '.' ends the sentence.
    path = range ? run : run.replace(/\.+$/, "");
    length = path.length;
  }
  if (path.trim() === "" || (quoted === undefined && path.startsWith("@"))) return undefined;
  const range = LINE_RANGE.exec(rest.slice(length));
  if (range === null) return { mention: { kind: "file", path }, length };
  const start = Number(range[1]);
  const lines: LineRange =
    range[2] === undefined
      ? { start, end: start }
      : range[3] === undefined
        ? { start }
        : { start, end: Number(range[3]) };
  return { mention: { kind: "file", path, lines }, length: length + range[0].length };
}

function parseAt(rest: string): Parsed {
  if (rest.startsWith("url:")) {
    const url = readToken(rest.slice(4), TOKEN_RUN);
    return url === "" ? undefined : { mention: { kind: "url", url }, length: 4 + url.length };
  }
  if (rest.startsWith("mcp:")) {
    const body = rest.slice(4);
    const quoted = readQuoted(body);
    const token = quoted?.value ?? readToken(body, TOKEN_RUN);
    const slash = token.indexOf("/");
    if (slash < 1 || slash === token.length - 1) return undefined;
    return {
      mention: { kind: "mcp", server: token.slice(0, slash), uri: token.slice(slash + 1) },
      length: 4 + (quoted?.length ?? token.length),
    };
  }
  if (rest.startsWith("search:")) return parseQuery(rest, "search");
  if (rest.startsWith("grep:")) return parseQuery(rest, "grep");
  return parseFile(rest);
}

/**
 * Finds the `@mentions` in chat input or a `--prompt`, in order, with their positions:
 *
 * - `@path`, `@"path with spaces"`, `@path#L10`, `@path#L10-20`, `@path#L10-` (to the end)
 * - `@search:"text"` (literal) and `@grep:"regex"`; quotes allow spaces, and a single
 *   word needs none (`@search:TODO`)
 * - `@url:https://...`
 * - `@mcp:server/uri`: a resource of the MCP server `server` (`@mcp:docs/file:///guide.md`)
 *
 * An `@` starts a mention only at the start of the text, after whitespace or after an
 * opening bracket or quote: `ada@example.com`, `a@b` and `\@` are plain text, and so is
 * everything inside inline code and fenced code blocks. Trailing sentence punctuation
 * (`.`, `,`, `)`, ...) is not part of a path, term or URL. Paths are not checked here:
 * the loader refuses what is outside the workspace, with a reason the user sees.
 *
 * @example
 * parseMentions("Review @src/a.ts#L10-20, then @search:\"TODO list\".");
 * // [{ kind: "file", path: "src/a.ts", lines: { start: 10, end: 20 }, ... },
 * //  { kind: "search", query: "TODO list", ... }]
 */
export function parseMentions(text: string): Mention[] {
  const code = codeRanges(text);
  const inCode = (index: number) => code.some(([start, end]) => index >= start && index < end);
  const mentions: Mention[] = [];
  let index = text.indexOf("@");
  while (index !== -1) {
    const before = index === 0 ? undefined : text[index - 1];
    const startsMention =
      (before === undefined || /\s/.test(before) || OPENERS.has(before)) && !inCode(index);
    const parsed = startsMention ? parseAt(text.slice(index + 1)) : undefined;
    if (parsed === undefined) {
      index = text.indexOf("@", index + 1);
      continue;
    }
    const end = index + 1 + parsed.length;
    mentions.push({ ...parsed.mention, raw: text.slice(index, end), start: index, end } as Mention);
    index = text.indexOf("@", end);
  }
  return mentions;
}
