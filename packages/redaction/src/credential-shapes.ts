import type { SecretSpan } from "./secret-span.js";

interface ShapeRule {
  readonly id: string;
  /** Flags `dg` (plus `i` where the shape ignores case). */
  readonly regex: RegExp;
  /** The group holding the secret; 0 for the whole match. */
  readonly group: number;
  /** A further test of the secret, where the shape alone would catch ordinary words. */
  readonly accept?: (secret: string) => boolean;
}

/** The schemes an `Authorization` value may start with: not credentials themselves. */
const AUTHORIZATION_SCHEMES =
  /^(?:bearer|basic|token|digest|negotiate|ntlm|bot|apikey|key|sso-key|ssws)$/i;
/** `${TOKEN}`, `$TOKEN`, `{{ token }}`, `%TOKEN%`: a reference to a credential, not one. */
const REFERENCE = /^(?:\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\{\{[^}]*\}\}|%[A-Za-z_]+%)$/;

/** A credential after `Bearer`/`Basic` in prose needs a digit or a symbol, or 20 characters. */
const looksLikeCredential = (secret: string): boolean =>
  /[\d._~+/=-]/.test(secret) || secret.length >= 20;

/**
 * Credential shapes XZatoma adds to the gitleaks rules: where a credential sits rather
 * than what it looks like (an `Authorization` header, the password of a URL or of
 * `curl -u`), and token prefixes at any length (gitleaks pins exact lengths, so a
 * shortened or a future longer token would slip through).
 */
const RULES: readonly ShapeRule[] = [
  {
    // Authorization: Bearer <credential>, also Proxy-Authorization and "authorization": "..."
    id: "authorization-header",
    regex:
      /\bauthorization\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:(?:bearer|basic|token|digest|negotiate|ntlm|bot|apikey|key|sso-key|ssws)[ \t]+)?([^\s"'`,;\\]{1,4096})/dgi,
    group: 1,
    // `Authorization: Bearer` with nothing after the scheme, or `Bearer ${TOKEN}`.
    accept: (secret) => !AUTHORIZATION_SCHEMES.test(secret) && !REFERENCE.test(secret),
  },
  {
    id: "bearer-or-basic",
    regex: /\b(?:bearer|basic)[ \t]+([A-Za-z0-9._~+/=-]{8,4096})/dgi,
    group: 1,
    accept: looksLikeCredential,
  },
  {
    // scheme://user:password@host: the password, up to the last @ of the authority (quotes
    // and brackets end it: they are percent-encoded in a URL, and end one in JSON or HTML).
    id: "url-password",
    regex: /(?<![\w+.-])[A-Za-z][\w+.-]{0,31}:\/\/[^\s/?#@:"'<>]{0,256}:([^\s/?#"'<>]{1,1024})@/dg,
    group: 1,
  },
  {
    // curl -u user:password, --user, --proxy-user
    id: "user-option-password",
    regex:
      /(?<![\w-])(?:-u|--user|--proxy-user)(?:=|[ \t]{1,16})\\?["']?[^\s"':]{1,256}:([^\s"']{1,1024})/dg,
    group: 1,
  },
  {
    // openssl -passin pass:SECRET, -passout, -pass (env:VAR and file:PATH name a source)
    id: "openssl-pass-argument",
    regex: /(?<![\w-])-(?:passin|passout|pass)[ \t]{1,16}\\?["']?pass:([^\s"']{1,1024})/dg,
    group: 1,
  },
  {
    // GitHub Copilot's API token: tid=...;exp=...;sku=...;...;8kp=1:<signature>
    id: "copilot-token",
    regex: /\btid=[^;\s]{1,256};exp=[^\s"']{1,4096}/dg,
    group: 0,
  },
  {
    id: "github-token",
    regex: /\b(?:gh[pousr]_[A-Za-z0-9_]{16,255}|github_pat_\w{20,255})/dg,
    group: 0,
  },
  {
    // OpenAI (sk-..., sk-proj-...), Anthropic (sk-ant-...) and the many APIs that copied them
    id: "sk-key",
    regex: /\bsk-[A-Za-z0-9_-]{16,4096}/dg,
    group: 0,
  },
  { id: "slack-token", regex: /\bxox[abeoprs]-[A-Za-z0-9-]{10,4096}/dg, group: 0 },
  { id: "google-api-key", regex: /\bAIza[\w-]{30,64}/dg, group: 0 },
  { id: "hugging-face-token", regex: /\b(?:hf|api_org)_[A-Za-z0-9]{30,64}/dg, group: 0 },
  {
    id: "gitlab-token",
    regex: /\bgl(?:pat|dt|rt|ptt|soat|cbt|ft|imt|oas)-[\w-]{20,4096}/dg,
    group: 0,
  },
  { id: "npm-token", regex: /\bnpm_[A-Za-z0-9]{30,64}/dg, group: 0 },
  { id: "stripe-key", regex: /\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,4096}/dg, group: 0 },
];

/** The secrets the XZatoma credential shapes find in `text`. */
export function findCredentialShapes(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const rule of RULES) {
    const regex = rule.regex;
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match; match = regex.exec(text)) {
      const indices = match.indices?.[rule.group];
      if (!indices || indices[1] <= indices[0]) continue;
      if (rule.accept && !rule.accept(text.slice(indices[0], indices[1]))) continue;
      spans.push({ start: indices[0], end: indices[1] });
    }
  }
  return spans;
}
