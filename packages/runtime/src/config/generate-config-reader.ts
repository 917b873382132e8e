/**
 * Writes `config-reader.generated.ts` from `runtimeConfigSchema`: the table the zod-free
 * configuration reader interprets (`config-reader.ts`), written by core's `schemaNodeOf` with
 * the configuration's own functions (`config-checks.ts`), the environment variables derived
 * from the schema's leaf keys, and the keys whose values are paths the loader resolves.
 * The build runs it (`generate-config-reader.ts`) and a test fails when the file is
 * not what it gives. Whatever it cannot write down exactly becomes "unsure", so the reader
 * answers "not sure" there and zod decides.
 */
import { isResolvedPath, schemaNodeOf } from "@xzatoma/core/config";
import type { z } from "zod";
import { environmentVariableOf } from "../config-loader/env-names.js";
import { innermostSchema, leafKeyPaths } from "../config-loader/schema-walk.js";
import { valueKindOf } from "../config-loader/value-kind-of.js";
import { CONFIG_CHECKS } from "./config-checks.js";
import type { ConfigNode } from "./config-reader.js";
import { runtimeConfigSchema } from "./config-schema.js";

/** The generated file's path inside the package, for messages. */
export const GENERATED_FILE = "src/config/config-reader.generated.ts";
/** What regenerates it. */
export const REGENERATE_COMMAND =
  "cd packages/runtime && node generate-config-reader.ts (the build runs it too)";

/** The table entry of one zod schema of the configuration. */
export function nodeOf(schema: z.ZodType): ConfigNode {
  return schemaNodeOf(schema, CONFIG_CHECKS);
}

/** Every leaf key whose schema is a `resolvedPath()`, in the schema's order. */
function resolvedPathKeys(root: z.ZodType): string[] {
  return leafKeyPaths(root)
    .filter(({ schema }) => isResolvedPath(schema))
    .map(({ keyPath }) => keyPath);
}

/** One environment variable per leaf key whose value text can hold, in the schema's order. */
function derivedEnvMappings(root: z.ZodType) {
  const mappings: { variable: string; key: string; kind: string; origin: "derived" }[] = [];
  for (const { keyPath, schema } of leafKeyPaths(root)) {
    const kind = valueKindOf(innermostSchema(schema));
    if (kind === undefined) continue;
    mappings.push({
      variable: environmentVariableOf(keyPath),
      key: keyPath,
      kind,
      origin: "derived",
    });
  }
  return mappings;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The text of `config-reader.generated.ts` for `root` (the composed schema by default). */
export function configReaderSource(root: z.ZodType = runtimeConfigSchema): string {
  return [
    "// Generated from runtimeConfigSchema by src/config/generate-config-reader.ts. Do not edit:",
    "// `node generate-config-reader.ts` in packages/runtime (the build runs it) rewrites",
    "// it, and config-reader.test.ts fails when it is not what the schemas give.",
    'import type { EnvMapping } from "../config-loader/env-mapping.js";',
    'import type { ConfigNode } from "./config-reader.js";',
    "",
    "/** The composed configuration schema, as the zod-free reader reads it. */",
    `export const CONFIG_NODE: ConfigNode = ${json(nodeOf(root))};`,
    "",
    "/** One environment variable per leaf key of the schema whose value text can hold. */",
    `export const DERIVED_ENV_MAPPINGS: readonly EnvMapping[] = ${json(derivedEnvMappings(root))};`,
    "",
    "/** Keys whose values are paths: `~` is expanded and relative paths are made absolute. */",
    `export const PATH_KEYS: readonly string[] = ${json(resolvedPathKeys(root))};`,
    "",
  ].join("\n");
}
