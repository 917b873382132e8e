/**
 * Whether `text` is a hook matcher: `*`, or a regular expression (empty matches everything).
 * A plain function, so that the configuration read at start-up, which does not load zod,
 * checks `hooks` with the same function as the section's schema.
 */
export function isHookMatcher(text: string): boolean {
  if (text === "*") return true;
  try {
    new RegExp(text);
    return true;
  } catch {
    return false;
  }
}
