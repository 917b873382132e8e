import type { SecretSpan } from "./secret-span.js";

/** Known secrets shorter than this are not searched for: they would match ordinary words. */
export const MIN_KNOWN_SECRET_LENGTH = 8;

/**
 * The forms a known secret takes in text: as is, URL-encoded (in a query or a form), and
 * JSON-escaped (inside a serialised request body).
 */
export function knownSecretForms(secrets: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_KNOWN_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first: a secret that contains another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Every occurrence of each form in `text`. */
export function findKnownSecrets(text: string, forms: readonly string[]): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const form of forms) {
    for (
      let index = text.indexOf(form);
      index >= 0;
      index = text.indexOf(form, index + form.length)
    )
      spans.push({ start: index, end: index + form.length });
  }
  return spans;
}
