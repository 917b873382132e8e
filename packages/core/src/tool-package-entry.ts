/**
 * A tool package entry of `agent.tools.packages` as the schema reads it: a package name alone
 * is `{ name }`. A plain function, so that the configuration read at start-up, which does not
 * load zod, takes the same step as the schema (`toolPackage` of `@xzatoma/core/config`).
 */
export function toolPackageFromName(value: unknown): unknown {
  return typeof value === "string" ? { name: value } : value;
}
