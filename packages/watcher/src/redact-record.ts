import type { OutboundRecord } from "@xzatoma/xzepr";

/** The one redactor of XZatoma (`redactSecrets` of `@xzatoma/safety`), as the runtime passes it. */
export type Redact = (text: string) => string;

/** Leaves text as it is: the default where no redactor was given. */
export const keepText: Redact = (text) => text;

/** A copy of a JSON value with every string redacted; object keys are kept. */
export function redactStrings(value: unknown, redact: Redact, depth = 0): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > 64) return redact(JSON.stringify(value));
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    copy[key] = redactStrings(item, redact, depth + 1);
  return copy;
}

/** JSON text with its strings redacted (still JSON), or any other text redacted as text. */
function redactText(text: string, redact: Redact): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redact(text);
  }
  return JSON.stringify(redactStrings(parsed, redact));
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * `record` as it may leave the watcher: its value (JSON redacted string by string, other
 * text as text) and its header values redacted. A value that is not UTF-8 text (a poison
 * message's bytes in a dead letter) cannot be read for secrets and is kept as it is.
 */
export function redactRecord(record: OutboundRecord, redact: Redact): OutboundRecord {
  if (redact === keepText) return record;
  let value = record.value;
  if (typeof value === "string") {
    value = redactText(value, redact);
  } else {
    let text: string | undefined;
    try {
      text = utf8.decode(value);
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      const redacted = redactText(text, redact);
      if (redacted !== text) value = new TextEncoder().encode(redacted);
    }
  }
  const headers =
    record.headers === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(record.headers).map(([name, header]) => [name, redact(header)]),
        );
  return { ...record, value, ...(headers !== undefined ? { headers } : {}) };
}
