import { isSecretName } from "./secret-names.js";
import type { SecretSpan } from "./secret-span.js";

/**
 * Values given to a key that names a secret, whatever the value looks like (a password
 * has no format): `.env` and shell lines (`API_KEY=...`, `export TOKEN=...`), JSON and
 * YAML (`"password": "..."`, also with escaped quotes inside a JSON string), code
 * (`password = '...'`, `'secret' => '...'`), URL queries (`?token=...&`), CLI flags
 * (`--password ...`, `--api-key=...`) and XML elements (`<password>...</password>`).
 * Only the value is returned, so the key stays readable: `API_KEY=[REDACTED]`.
 *
 * Linear in the text: the patterns find a name and its separator only (bounded), the
 * scan goes on from the separator (so a value is itself searched for keys: a query inside
 * a URL, a JSON document inside a string), and the value's end is found by forward scans
 * that never look at a character twice.
 */
export function findKeyValueSecrets(text: string): SecretSpan[] {
  const scanner = createForwardScanner(text);
  const spans: SecretSpan[] = [];
  for (const rule of RULES) {
    const regex = rule.regex;
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match; match = regex.exec(text)) {
      if (!isSecretName(match[1] ?? "")) continue;
      // `https://x-access-token:PASSWORD@host`: a URL's user, not a key; the URL password
      // rule hides the password and keeps the host.
      if (text.startsWith("://", match.index - 3)) continue;
      const value = rule.value(scanner, regex.lastIndex, match[1] ?? "");
      if (!value || isPlaceholder(text, value)) continue;
      if (rule.assignment && !value.quoted && inSentence(text, match.index)) {
        // `let signature = paths`, `holds secrets: the same`, `TOKENS_PER_PAGE = 4`: in a
        // sentence or a statement, a bare word or a small number is a reference or a
        // constant; a literal secret there is quoted, or has digits and symbols.
        if (/^(?:[A-Za-z_]+|\d{1,5})[;,]?$/.test(text.slice(value.start, value.end))) continue;
      }
      spans.push(value);
    }
  }
  return spans;
}

interface Value extends SecretSpan {
  /** Unquoted values may be code (`token = getToken()`) rather than a secret. */
  readonly quoted: boolean;
}

interface KeyValueRule {
  /** Group 1 is the name; the match ends where the value starts. */
  readonly regex: RegExp;
  /** `name = value` forms, where the words before the name tell prose and code from config. */
  readonly assignment?: boolean;
  readonly value: (scanner: ForwardScanner, start: number, name: string) => Value | undefined;
}

const RULES: readonly KeyValueRule[] = [
  {
    // name = value, name: value, "name": "value", name => value, name := value. `==`,
    // `=>` in `x => x.token` and `===` are comparisons or code, not assignments.
    regex:
      /(?<![\w.])\\?["'`]?([A-Za-z_][\w.-]{0,63})\\?["'`]?[ \t]{0,16}(?:=>|:=|:(?!:)|=(?![=>~]))[ \t]{0,16}/g,
    value: readValue,
    assignment: true,
  },
  {
    // --password value, --api-key=value, -token value
    regex: /(?<![\w-])--?([A-Za-z][\w-]{0,63})(?:=|[ \t]{1,16})(?!-)/g,
    value: readValue,
  },
  {
    // <password>value</password>, closed on its line (`Promise<AuthToken>` is a type)
    regex: /<([A-Za-z_][\w.-]{0,63})>/g,
    value: (scanner, start, name) => {
      const end = scanner.next("<", start);
      if (end <= start || scanner.next("\n", start) < end) return undefined;
      return scanner.text.startsWith(`</${name}>`, end) ? { start, end, quoted: true } : undefined;
    },
  },
];

/** Words before `NAME=value` on a line that still make it a setting, not a sentence. */
const SETTING_WORDS = new Set([
  "arg",
  "declare",
  "env",
  "export",
  "local",
  "readonly",
  "set",
  "setenv",
  "setx",
  "typeset",
]);

/**
 * Whether the name at `index` follows a word on its line (`let x =`, `holds secrets:`),
 * as in a sentence or a statement, rather than starting a setting: a line's start, after
 * `{`, `,`, `;`, `?`, `&`, a quote, or a command's flag or `export`. Looks back at most 64
 * characters.
 */
function inSentence(text: string, index: number): boolean {
  let end = index;
  const limit = Math.max(0, index - 64);
  while (end > limit && (text[end - 1] === " " || text[end - 1] === "\t")) end -= 1;
  if (end === index || end === 0 || !/\w/.test(text.charAt(end - 1))) return false;
  let start = end;
  while (start > limit && /[^\s]/.test(text.charAt(start - 1))) start -= 1;
  const word = text.slice(start, end);
  return !word.startsWith("-") && !SETTING_WORDS.has(word.toLowerCase());
}

/** Characters that end an unquoted value: a shell word, a query parameter, a list item. */
const UNQUOTED_END = /[\s"'`,;&|<>(){}[\]]/;

function readValue(scanner: ForwardScanner, start: number): Value | undefined {
  const { text } = scanner;
  const lineEnd = scanner.next("\n", start);
  const quote = text[start] === "\\" && text[start + 1] === '"' ? '\\"' : text[start];
  if (quote === '\\"' || quote === '"' || quote === "'" || quote === "`") {
    const from = start + quote.length;
    const closing = quote === '"' ? scanner.nextUnescapedQuote(from) : scanner.next(quote, from);
    // An unterminated string still hides its secret, up to the end of the line.
    const end = Math.min(closing, lineEnd);
    return end > from ? { start: from, end, quoted: true } : undefined;
  }
  if (text.startsWith("${", start)) {
    // ${NAME} and ${{ expression }}: a reference, read whole so it is recognised as one.
    const end = Math.min(scanner.next("}", start), lineEnd);
    const close = text.startsWith("}}", end) ? end + 2 : end + 1;
    return { start, end: Math.min(close, text.length), quoted: false };
  }
  const end = scanner.nextMatching(UNQUOTED_END, start);
  return end > start ? { start, end, quoted: false } : undefined;
}

/** Values that are not secrets: types, literals and keywords that start an expression. */
const NOT_SECRETS = new Set([
  "any",
  "async",
  "await",
  "bool",
  "boolean",
  "bytes",
  "false",
  "function",
  "int",
  "lambda",
  "new",
  "nil",
  "none",
  "null",
  "number",
  "object",
  "optional",
  "readonly",
  "redacted",
  "required",
  "self",
  "str",
  "string",
  "this",
  "true",
  "typeof",
  "undefined",
  "unknown",
]);

/** Longer values are never references, types or code words; they are not looked at. */
const MAX_PLACEHOLDER_LENGTH = 256;

function isPlaceholder(text: string, value: Value): boolean {
  if (value.end - value.start > MAX_PLACEHOLDER_LENGTH) return false;
  const bare = text.slice(value.start, value.end).replace(/[;,]$/, "");
  if (NOT_SECRETS.has(bare.toLowerCase())) return true;
  // A reference to the secret, not the secret: $TOKEN, ${TOKEN}, ${{ secrets.TOKEN }},
  // %TOKEN%, {{ token }}; and an earlier redaction or a mask.
  if (/^\$(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*)$|^\$\{[^}]*\}$|^\$?\{\{[^}]*\}\}$/.test(bare))
    return true;
  if (/^%[A-Za-z_]+%$|^\[REDACTED\]$|^\*+$/.test(bare)) return true;
  // A decimal fraction is a weight or a ratio (`perToken: 0.1`), never a credential.
  if (/^\d+\.\d+$/.test(bare)) return true;
  if (value.quoted) return false;
  // Code: `token = getToken()`, `password = options.password`, `secret: this.secret`. A
  // value with a digit is not taken for code: secrets have them, member names seldom do.
  const after = text[value.end];
  if (after === "(" || after === "[" || after === "<") return true;
  return /^[A-Za-z_$][A-Za-z_$]*(?:\??\.[A-Za-z_$][A-Za-z_$]*)+$/.test(bare);
}

/**
 * "Where is the next X at or after this offset", for offsets that only grow: each answer
 * is remembered, so a scan that is asked again from inside a stretch it already crossed
 * answers at once. Over a whole text every character is examined once per kind of X.
 */
interface ForwardScanner {
  readonly text: string;
  /** The next occurrence of `needle` at or after `from`; the text's length if none. */
  next(needle: string, from: number): number;
  /** The next character matching `pattern` (one character class) at or after `from`. */
  nextMatching(pattern: RegExp, from: number): number;
  /** The next `"` not preceded by a backslash, at or after `from`. */
  nextUnescapedQuote(from: number): number;
}

function createForwardScanner(text: string): ForwardScanner {
  const memory = new Map<string | RegExp, { from: number; found: number }>();
  const remembered = (key: string | RegExp, from: number, find: () => number): number => {
    const last = memory.get(key);
    if (last && last.from <= from && from <= last.found) return last.found;
    const found = find();
    memory.set(key, { from, found });
    return found;
  };
  const unescapedQuote = '\\"-unescaped';
  return {
    text,
    next: (needle, from) =>
      remembered(needle, from, () => {
        const index = text.indexOf(needle, from);
        return index < 0 ? text.length : index;
      }),
    nextMatching: (pattern, from) =>
      remembered(pattern, from, () => {
        let index = from;
        while (index < text.length && !pattern.test(text.charAt(index))) index += 1;
        return index;
      }),
    nextUnescapedQuote: (from) =>
      remembered(unescapedQuote, from, () => {
        let index = text.indexOf('"', from);
        while (index > 0 && text[index - 1] === "\\") index = text.indexOf('"', index + 1);
        return index < 0 ? text.length : index;
      }),
  };
}
