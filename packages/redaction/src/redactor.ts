import { findCommandLinePasswords } from "./command-line-passwords.js";
import { findCredentialShapes } from "./credential-shapes.js";
import { findGitleaksSecrets } from "./gitleaks-detector.js";
import { findKeyValueSecrets } from "./key-value-secrets.js";
import { findKnownSecrets, knownSecretForms } from "./known-secrets.js";
import { findNetrcSecrets } from "./netrc-secrets.js";
import { findXmlAttributeSecrets } from "./xml-attribute-secrets.js";
import { backslashUnescaped, percentDecoded } from "./decoded-views.js";
import { findPrivateKeyBlocks } from "./private-key-blocks.js";
import { replaceSpans, type SecretSpan } from "./secret-span.js";

/** Options of {@link createRedactor} and {@link redactSecrets}. */
export interface RedactorOptions {
  /**
   * Secrets the caller holds (a provider's API key, an OAuth token), removed wherever they
   * appear, also URL-encoded or JSON-escaped, whatever their format. Values shorter than
   * 8 characters are ignored: they would match ordinary words.
   */
  readonly known?: Iterable<string>;
  /**
   * Keep the line breaks a secret spans (a private key's body), with a marker on each of
   * its lines, so the text keeps its line numbers: for text shown by line (a file read by
   * lines, search results). Default false: one marker.
   */
  readonly keepLines?: boolean;
}

/** Text in, the same text with every secret replaced by `[REDACTED]` out. */
export type Redact = (text: string) => string;

/** How far a secret found mid-token is extended to the token's end. */
const MAX_EXTENSION = 4096;
const TOKEN_CHARACTER = /[A-Za-z0-9_-]/;

/**
 * Spans that stop inside a token (a rule that pins a length meeting a longer token) are
 * carried on to the token's end: a secret's tail is as secret as its head. Spans are
 * taken in order of their ends and the last token end is remembered, so a run of many
 * findings inside one long token is crossed once.
 */
function toTokenEnd(text: string, spans: readonly SecretSpan[]): SecretSpan[] {
  let crossedFrom = -1;
  let tokenEnd = -1;
  return [...spans]
    .sort((a, b) => a.end - b.end)
    .map((span) => {
      if (span.end === 0 || !TOKEN_CHARACTER.test(text.charAt(span.end - 1))) return span;
      if (span.end < crossedFrom || span.end > tokenEnd) {
        crossedFrom = span.end;
        tokenEnd = span.end;
        const limit = Math.min(text.length, span.end + MAX_EXTENSION);
        while (tokenEnd < limit && TOKEN_CHARACTER.test(text.charAt(tokenEnd))) tokenEnd += 1;
      }
      return tokenEnd === span.end ? span : { start: span.start, end: tokenEnd };
    });
}

function findSecrets(text: string, knownForms: readonly string[]): SecretSpan[] {
  return toTokenEnd(text, findGitleaksSecrets(text).concat(findCredentialShapes(text))).concat(
    findKeyValueSecrets(text),
    findXmlAttributeSecrets(text),
    findNetrcSecrets(text),
    findCommandLinePasswords(text),
    findPrivateKeyBlocks(text),
    findKnownSecrets(text, knownForms),
  );
}

/**
 * Creates a redactor: a synchronous function that replaces every secret in a text with
 * `[REDACTED]`, keeping the names around them (`API_KEY=[REDACTED]`,
 * `"password": "[REDACTED]"`, `Authorization: Bearer [REDACTED]`).
 *
 * It finds secrets with the gitleaks ruleset (vendored, see the README's "Redaction"),
 * plus values of keys that name a secret (`.env`, JSON, YAML and kubeconfig, code, URL
 * queries, CLI flags, XML elements and `key`/`value` attributes), `.netrc` passwords,
 * command-line passwords (`mysql -pX`, `sshpass -p X`, `openssl -passin pass:X`),
 * private key blocks, passwords in URLs and `curl -u`, `Authorization` values, token
 * prefixes at any length, and the exact `known` secrets; each also in
 * the text with its `%XX` and its backslash escapes (`\n`, `\"`) decoded. Time is linear in the text: every pattern is bounded.
 *
 * @example
 * const redact = createRedactor({ known: [apiKey] });
 * log(redact(`request failed: ${body}`));
 */
export function createRedactor(options: RedactorOptions = {}): Redact {
  const knownForms = knownSecretForms(options.known ?? []);
  return (text) => {
    if (text.length === 0) return text;
    let spans = findSecrets(text, knownForms);
    // The same text with its escapes decoded: what a URL or a JSON string stands for.
    for (const view of [percentDecoded(text), backslashUnescaped(text)]) {
      if (!view) continue;
      spans = spans.concat(
        findSecrets(view.text, knownForms).map((span) => ({
          start: view.originalIndex(span.start),
          end: view.originalIndex(span.end),
        })),
      );
    }
    return replaceSpans(text, spans, options.keepLines === true);
  };
}

/**
 * `text` with every secret replaced by `[REDACTED]` (see {@link createRedactor}); apply
 * it to anything written somewhere durable: the audit log, the history database, logs.
 *
 * @example
 * redactSecrets('curl -H "Authorization: Bearer abc123def456" https://api.example');
 * // 'curl -H "Authorization: Bearer [REDACTED]" https://api.example'
 */
export function redactSecrets(text: string, options?: RedactorOptions): string {
  return createRedactor(options)(text);
}
