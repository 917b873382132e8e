import { createRedactor } from "@xzatoma/redaction";

/** What replaces a secret in a message: the marker of `@xzatoma/redaction`. */
export { REDACTED } from "@xzatoma/redaction";

/**
 * Replaces every secret in `text`: each of `secrets` (the credentials the provider holds;
 * values under 8 characters are ignored, they would match ordinary words), also
 * URL-encoded or JSON-escaped, and anything `@xzatoma/redaction` recognises (token
 * formats, `Authorization` values, `"password": ...`, private keys, ...).
 */
export function redactText(text: string, secrets: readonly string[]): string {
  return createRedactor({ known: secrets })(text);
}

function chainOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 10) {
    if (chain.includes(current)) break;
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function needsRedaction(error: unknown, secrets: readonly string[]): boolean {
  for (const link of chainOf(error)) {
    if (link === null || typeof link !== "object") {
      if (redactValue(link, secrets) !== link) return true;
      continue;
    }
    const values: unknown[] = [(link as Error).message, (link as Error).stack];
    for (const key of Reflect.ownKeys(link)) {
      if (key !== "cause") values.push((link as Record<string | symbol, unknown>)[key]);
    }
    if (values.some((value) => redactValue(value, secrets) !== value)) return true;
  }
  return false;
}

function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redactText(value, secrets);
  if (value === null || typeof value !== "object") return value;
  try {
    const text = JSON.stringify(value);
    return text === undefined || redactText(text, secrets) === text ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A copy of one error with its message, stack and text fields redacted and `cause`
 * replaced; same prototype and own properties otherwise, so classes, codes and markers
 * (`isXzatomaError`, `APICallError.isInstance`) survive.
 */
function redactLink(link: unknown, secrets: readonly string[], cause: unknown): unknown {
  if (!(link instanceof Error)) return redactValue(link, secrets);
  const message = redactText(link.message, secrets);
  const copy = Object.create(Object.getPrototypeOf(link) as object) as Error;
  for (const key of Reflect.ownKeys(link)) {
    if (key === "message" || key === "stack" || key === "cause") continue;
    const descriptor = Object.getOwnPropertyDescriptor(link, key);
    if (!descriptor) continue;
    if ("value" in descriptor) {
      const value = redactValue(descriptor.value, secrets);
      if (value === undefined && descriptor.value !== undefined) continue;
      descriptor.value = value;
    }
    Object.defineProperty(copy, key, descriptor);
  }
  const hidden = { writable: true, configurable: true, enumerable: false };
  Object.defineProperty(copy, "message", { ...hidden, value: message });
  if (typeof link.stack === "string") {
    const stack = redactText(link.stack.split(link.message).join(message), secrets);
    Object.defineProperty(copy, "stack", { ...hidden, value: stack });
  }
  if (cause !== undefined) Object.defineProperty(copy, "cause", { ...hidden, value: cause });
  return copy;
}

/**
 * Returns `error` unchanged when neither it nor its causes mention a secret; otherwise a
 * copy of the chain with every message, stack and text field redacted, object fields that
 * mention a secret dropped, and error classes, codes and markers kept.
 */
export function redactError(error: unknown, secrets: readonly string[]): unknown {
  if (!needsRedaction(error, secrets)) return error;
  const chain = chainOf(error);
  let cause: unknown = undefined;
  for (let index = chain.length - 1; index >= 0; index -= 1)
    cause = redactLink(chain[index], secrets, cause);
  return cause;
}
