/** Where a secret sits in a text: `[start, end)` in UTF-16 code units. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
}

/** What replaces each secret. */
export const REDACTED = "[REDACTED]";

/**
 * `text` with every span replaced by {@link REDACTED}; overlapping and touching spans
 * become one marker. With `keepLines`, a span that crosses line breaks keeps them, with a
 * marker on each of its lines, so the text keeps its line numbers. Linear in the text and
 * the spans (after sorting them).
 */
export function replaceSpans(
  text: string,
  spans: readonly SecretSpan[],
  keepLines = false,
): string {
  const marker = (start: number, end: number): string => {
    if (!keepLines) return REDACTED;
    const lines = text.slice(start, end).split("\n");
    return lines.length === 1 ? REDACTED : lines.map((line) => (line ? REDACTED : "")).join("\n");
  };
  if (spans.length === 0) return text;
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const parts: string[] = [];
  let written = 0;
  let open: { start: number; end: number } | undefined;
  for (const span of sorted) {
    if (span.end <= span.start) continue;
    if (open && span.start <= open.end) {
      open.end = Math.max(open.end, span.end);
      continue;
    }
    if (open) {
      parts.push(text.slice(written, open.start), marker(open.start, open.end));
      written = open.end;
    }
    open = { start: span.start, end: span.end };
  }
  if (open) {
    parts.push(text.slice(written, open.start), marker(open.start, open.end));
    written = open.end;
  }
  parts.push(text.slice(written));
  return parts.join("");
}
