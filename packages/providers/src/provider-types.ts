/** The model providers XZatoma knows. */
export const PROVIDER_TYPES = ["ollama", "openai", "copilot", "local"] as const;
/** `provider.type`. */
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** True when `value` is the name of a provider. */
export function isProviderType(value: unknown): value is ProviderType {
  return typeof value === "string" && (PROVIDER_TYPES as readonly string[]).includes(value);
}
