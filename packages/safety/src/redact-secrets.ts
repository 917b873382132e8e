/**
 * Removes secrets from text before it is written anywhere durable (the audit log, logs):
 * tokens with well-known prefixes, bearer and basic credentials, `key=value` pairs whose
 * key names a secret, and credentials in URLs.
 */
const PATTERNS: readonly [RegExp, string][] = [
  [/\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g, "[REDACTED]"],
  [
    /\b(sk-[A-Za-z0-9_-]{16,}|xox[abpr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,})\b/g,
    "[REDACTED]",
  ],
  [/\b(tid=[^;\s]+;exp=[^\s"']+)/g, "[REDACTED]"],
  [/\b(Bearer|Basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, "$1 [REDACTED]"],
  [
    /\b([A-Za-z0-9_]*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)[A-Za-z0-9_]*)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s&;|]+)/gi,
    "$1$2[REDACTED]",
  ],
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, "$1[REDACTED]@"],
];

/** `text` with every recognised secret replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let result = text;
  for (const [pattern, replacement] of PATTERNS) result = result.replace(pattern, replacement);
  return result;
}
