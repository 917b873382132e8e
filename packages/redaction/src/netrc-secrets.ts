import type { SecretSpan } from "./secret-span.js";

/**
 * Passwords in `.netrc` entries (`machine HOST login USER password SECRET`, the
 * `default` entry, and the `account` token, which netrc defines as a second password),
 * whether the tokens share a line or not. An entry must start with `machine HOST` or
 * `default` followed by a netrc keyword, so prose that merely says "password" is left
 * alone.
 *
 * Linear in the text: the walk over an entry's tokens ends where the next search for
 * `machine` or `default` starts.
 */
export function findNetrcSecrets(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  ENTRY.lastIndex = 0;
  for (let match = ENTRY.exec(text); match; match = ENTRY.exec(text)) {
    const walked = walkEntry(text, ENTRY.lastIndex, match[1] === "machine", spans);
    ENTRY.lastIndex = Math.max(ENTRY.lastIndex, walked);
  }
  return spans;
}

/** `machine` or `default` as a whole word. */
const ENTRY = /(?<!\S)(machine|default)(?!\S)/g;
/** Keywords whose next token is a value; `password` and `account` values are secret. */
const VALUE_KEYWORDS = new Set(["login", "password", "account", "port"]);
const SECRET_KEYWORDS = new Set(["password", "account"]);
/** An entry has at most this many keyword-value pairs; more is not a netrc file. */
const MAX_PAIRS = 16;
const MAX_QUOTED = 1024;

interface Token {
  readonly start: number;
  readonly end: number;
  /** The span of the value without its quotes. */
  readonly inner: SecretSpan;
}

function nextToken(text: string, from: number): Token | undefined {
  let start = from;
  while (start < text.length && /\s/.test(text.charAt(start))) start += 1;
  if (start >= text.length) return undefined;
  if (text[start] === '"') {
    // A quoted value ends at its quote or its line, at most 1,024 characters on.
    const limit = Math.min(text.length, start + MAX_QUOTED);
    let end = start + 1;
    while (end < limit && text[end] !== '"' && text[end] !== "\n") end += 1;
    return { start, end: end + 1, inner: { start: start + 1, end } };
  }
  let end = start;
  while (end < text.length && !/\s/.test(text.charAt(end))) end += 1;
  return { start, end, inner: { start, end } };
}

/** Reads an entry's tokens from `from`; returns where the walk stopped. */
function walkEntry(text: string, from: number, machine: boolean, spans: SecretSpan[]): number {
  let position = from;
  if (machine) {
    const host = nextToken(text, position);
    if (!host) return position;
    position = host.end;
  }
  const entrySpans: SecretSpan[] = [];
  let pairs = 0;
  for (; pairs < MAX_PAIRS; pairs += 1) {
    const keyword = nextToken(text, position);
    if (!keyword) break;
    const word = text.slice(keyword.start, keyword.end).toLowerCase();
    if (!VALUE_KEYWORDS.has(word)) break;
    // "by default password prompts ...": a default entry starts with its login.
    if (!machine && pairs === 0 && word !== "login") break;
    const value = nextToken(text, keyword.end);
    if (!value) break;
    if (SECRET_KEYWORDS.has(word) && value.inner.end > value.inner.start)
      entrySpans.push(value.inner);
    position = value.end;
  }
  // `machine HOST` (or `default`) followed by no keyword at all is prose, not an entry.
  if (pairs > 0) spans.push(...entrySpans);
  return position;
}
