// The text of an HTML page without a parser: one pass with indexOf, linear in the page.
// Used when the Markdown conversion would take too long (see page-text.ts).

/** Elements whose content is never text for the model. */
const DROPPED = ["script", "style", "template", "noscript", "svg"];
/** Elements that end a line. */
const BLOCK =
  /^(?:p|div|br|hr|li|ul|ol|tr|table|h[1-6]|section|article|header|footer|pre|blockquote|dd|dt|title)$/;
const ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code =
        name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * The readable text of `html`: tags removed, the content of scripts, styles and comments
 * dropped, block elements on lines of their own, entities decoded, blank runs collapsed.
 */
export function htmlToPlainText(html: string): string {
  const lower = html.toLowerCase();
  let text = "";
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf("<", at);
    if (open === -1) {
      text += html.slice(at);
      break;
    }
    text += html.slice(at, open);
    if (html.startsWith("<!--", open)) {
      const end = html.indexOf("-->", open + 4);
      at = end === -1 ? html.length : end + 3;
      continue;
    }
    const close = html.indexOf(">", open + 1);
    if (close === -1) {
      text += html.slice(open);
      break;
    }
    const name = /^<\/?([a-z][a-z0-9-]*)/i.exec(html.slice(open, Math.min(close, open + 40)))?.[1];
    const tag = name?.toLowerCase();
    at = close + 1;
    if (html[open + 1] === "!" || html[open + 1] === "?") continue; // doctype, CDATA, PI
    if (tag === undefined) {
      text += html.slice(open, at);
      continue;
    }
    if (DROPPED.includes(tag) && html[open + 1] !== "/") {
      const end = lower.indexOf(`</${tag}`, at);
      at = end === -1 ? html.length : lower.indexOf(">", end) + 1 || html.length;
      continue;
    }
    if (BLOCK.test(tag)) text += "\n";
  }
  return decodeEntities(text)
    .replace(/[ \t\r\f\v]+/g, " ")
    .replace(/ ?\n[\n ]*/g, "\n")
    .trim();
}
