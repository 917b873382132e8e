// The schema checks of the configuration's zod schema: loaded only when the generated reader
// is not sure (a problem to report, or something it was not generated to decide).
import { runtimeConfigSchema as configFileSchema } from "../config/config-schema.js";
import type { ConfigFileShape } from "../config/config-schema.js";
import { issuesToProblems } from "./config-issues.js";
import { formatKeyPath, type KeySegments } from "./key-path.js";
import type { SchemaChecks } from "./schema-checks.js";
import { childSchema, isLeafSchema, schemaAt } from "./schema-walk.js";
import type { z } from "zod";

/** Calls `visit` for every leaf (a value that is not an object of config keys) in `value`. */
function forEachLeaf(
  value: unknown,
  visit: (keyPath: string) => void,
  segments: KeySegments = [],
  schema: z.ZodType | undefined = configFileSchema,
): void {
  // The schema is followed down with the value, not looked up from the root at every key.
  if (schema === undefined) return;
  if (segments.length > 0 && isLeafSchema(schema)) {
    if (value !== undefined) visit(formatKeyPath(segments));
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    forEachLeaf(child, visit, [...segments, key], childSchema(schema, key));
  }
}

export const zodSchemaChecks: SchemaChecks = {
  problemsOf(value, prefix, locate) {
    const schema = schemaAt(configFileSchema, prefix);
    if (schema === undefined) return [];
    const result = schema.safeParse(value);
    if (result.success) return [];
    return issuesToProblems(result.error.issues, value, prefix, locate);
  },
  parse(value, locate) {
    const parsed = configFileSchema.safeParse(value);
    if (parsed.success) return { data: parsed.data as ConfigFileShape };
    return { problems: issuesToProblems(parsed.error.issues, value, [], locate) };
  },
  projectProblems(value) {
    const checked = configFileSchema.safeParse(value);
    if (checked.success) return undefined;
    return checked.error.issues
      .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
      .join("; ");
  },
  forEachLeaf(value, visit) {
    forEachLeaf(value, visit);
  },
};
