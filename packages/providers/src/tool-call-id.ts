/**
 * An id for a tool call the model gave none (`call_` and 24 hex digits). `node:crypto` is
 * taken on the first call, not imported: a start that never needs an id does not load it.
 */
export function newToolCallId(): string {
  const { randomUUID } = process.getBuiltinModule("node:crypto");
  return `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
}
