import { isSecretName } from "./secret-names.js";
import type { SecretSpan } from "./secret-span.js";

/**
 * Values of XML elements whose `key` or `name` attribute names a secret: .NET's
 * `<add key="DbPassword" value="..."/>`, Spring's and Ant's
 * `<property name="db.password" value="..."/>`, HTML's `<meta name="csrf-token"
 * content="...">`, and Java's XML properties
 * `<entry key="password">...</entry>`. (`<password>...</password>` elements are found by
 * the key-value rules.)
 *
 * Linear in the text: after each secret name, the rest of its element is read once, at
 * most 1,024 characters.
 */
export function findXmlAttributeSecrets(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  NAME_ATTRIBUTE.lastIndex = 0;
  for (let match = NAME_ATTRIBUTE.exec(text); match; match = NAME_ATTRIBUTE.exec(text)) {
    if (!isSecretName(match[2] ?? "")) continue;
    const span = valueOf(text, NAME_ATTRIBUTE.lastIndex);
    if (span && span.end > span.start) spans.push(span);
  }
  return spans;
}

/** `key="NAME"` or `name='NAME'`; group 2 is the name. */
const NAME_ATTRIBUTE = /(?<![\w:.-])(?:key|name)[ \t]*=[ \t]*(["'])([A-Za-z_][\w.:-]{0,127})\1/g;
/** `value="..."` (or HTML's `content="..."`) in the rest of the element; group 1 is the quote. */
const VALUE_ATTRIBUTE = /(?<![\w:.-])(?:value|content)[ \t\r\n]*=[ \t\r\n]*(["'])/y;
const MAX_ELEMENT_REST = 1024;

/** The first `needle` in `[from, limit)`, or -1: never reads past `limit`. */
function indexBefore(text: string, needle: string, from: number, limit: number): number {
  const found = text.slice(from, limit).indexOf(needle);
  return found < 0 ? -1 : from + found;
}

function valueOf(text: string, from: number): SecretSpan | undefined {
  const limit = Math.min(text.length, from + MAX_ELEMENT_REST);
  for (let index = from; index < limit; index += 1) {
    const character = text[index];
    if (character === "<") return undefined;
    if (character === ">") {
      // `<entry key="password">VALUE</entry>` on one line: the element's text is the value.
      if (text[index - 1] === "/") return undefined;
      const close = indexBefore(text, "</", index + 1, limit);
      if (close < 0) return undefined;
      const inner = text.slice(index + 1, close);
      if (inner.includes("<") || inner.includes("\n") || inner.trim() === "") return undefined;
      return { start: index + 1, end: close };
    }
    if (character === "v" || character === "c") {
      VALUE_ATTRIBUTE.lastIndex = index;
      const value = VALUE_ATTRIBUTE.exec(text);
      if (value) {
        const quote = value[1] as string;
        const start = VALUE_ATTRIBUTE.lastIndex;
        const close = indexBefore(text, quote, start, limit);
        return { start, end: close < 0 ? limit : close };
      }
    }
    if (character === '"' || character === "'") {
      // Another attribute's value: skipped whole, so a `>` or `v` inside it is not read.
      const close = indexBefore(text, character, index + 1, limit);
      if (close < 0) return undefined;
      index = close;
    }
  }
  return undefined;
}
