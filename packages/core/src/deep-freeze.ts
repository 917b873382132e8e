/**
 * Freezes `value` and everything reachable through its own enumerable properties, for data
 * that is built once and shared (a tool's offered input schema, a service's runtime template).
 * Returns `value`. Already frozen objects are left as they are, which also ends cycles.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
