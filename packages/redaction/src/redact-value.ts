import { redactSecrets } from "./redactor.js";
import { REDACTED } from "./secret-span.js";

/**
 * A copy of `value` (JSON-like: objects, arrays, strings, numbers, booleans, null) with
 * every string redacted by `redact` (default {@link redactSecrets}); object keys are kept.
 * For structured data on its way to a log or a wire: redacting each string, rather than
 * the serialised text, keeps the result well formed.
 *
 * @example
 * appendFileSync(log, `${JSON.stringify(redactValue(event))}\n`);
 */
export function redactValue<T>(value: T, redact: (text: string) => string = redactSecrets): T {
  return walk(value, redact, 0) as T;
}

/** Deeper than this, an object becomes `[REDACTED]`: no event of XZatoma nests so far. */
const MAX_DEPTH = 64;

function walk(value: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => walk(item, redact, depth + 1));
  const copy: Record<string, unknown> = {};
  // An error's name and message are not enumerable; its code and fields are.
  if (value instanceof Error) {
    copy["name"] = value.name;
    copy["message"] = redact(value.message);
  }
  for (const [key, item] of Object.entries(value)) copy[key] = walk(item, redact, depth + 1);
  return copy;
}
