const ESC = "\x1b[";

/**
 * Inline Markdown of one piece of text, styled for a terminal: `code` cyan, **bold** and
 * __bold__ bold, *emphasis* italic, [text](url) underlined with the address after it, dim.
 * Without colour the text is returned as written. `text` must already be escaped for the
 * terminal (see `terminal-safe.ts`): this adds styling only.
 */
export function renderInline(text: string, color: boolean): string {
  if (!color) return text;
  // Code first, and kept apart: nothing inside backticks is Markdown.
  return text
    .split(/(`[^`]+`)/)
    .map((part) => {
      if (/^`[^`]+`$/.test(part)) return `${ESC}36m${part.slice(1, -1)}${ESC}39m`;
      return part
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_match, label: string, url: string) =>
          label === url
            ? `${ESC}4m${url}${ESC}24m`
            : `${ESC}4m${label}${ESC}24m ${ESC}2m(${url})${ESC}22m`,
        )
        .replace(
          /\*\*([^*]+)\*\*|__([^_]+)__/g,
          (_match, a?: string, b?: string) => `${ESC}1m${a ?? b ?? ""}${ESC}22m`,
        )
        .replace(
          /(^|[^\w*])\*([^*\s][^*]*?)\*(?![\w*])/g,
          (_match, before: string, inner: string) => `${before}${ESC}3m${inner}${ESC}23m`,
        );
    })
    .join("");
}

/**
 * Whether `text` leaves an inline construct open: a backtick, `**` or a link not yet
 * closed. A streamed paragraph is printed word by word, but not inside such a construct,
 * so its styling can be decided when it closes.
 */
export function leavesInlineOpen(text: string): boolean {
  const backticks = (text.match(/`/g) ?? []).length;
  if (backticks % 2 === 1) return true;
  const outsideCode = text.replace(/`[^`]*`/g, "");
  if ((outsideCode.match(/\*\*/g) ?? []).length % 2 === 1) return true;
  const lastOpen = outsideCode.lastIndexOf("[");
  if (lastOpen !== -1) {
    const rest = outsideCode.slice(lastOpen);
    // `[label` or `[label](url` is open; `[label]` followed by something else is not a link.
    if (!rest.includes("]")) return true;
    if (/^\[[^\]]*\]$/.test(rest) || /^\[[^\]]*\]\([^)]*$/.test(rest)) return true;
  }
  return false;
}
