/**
 * The configuration reader that runs at start-up instead of zod: core's zod-free schema
 * reader (`readSchemaValue` of `@xzatoma/core`) with the configuration's own functions
 * (`config-checks.ts`). It interprets the table `config-reader.generated.ts` holds, which the
 * build generates from `runtimeConfigSchema` (`generate-config-reader.ts`), and answers either
 * with exactly what the zod schema's `parse` returns or with "not sure". "Not sure" is every
 * answer it was not generated to give: any problem at all, a refinement or transform it has
 * no zod-free function for, an input that is not plain data. Then the loader asks zod, which
 * reports the problems with their files, lines and key paths (docs/explanation/launch-path.md).
 */
import { readSchemaValue, type ReadResult, type SchemaNode } from "@xzatoma/core";
import { CONFIG_CHECKS } from "./config-checks.js";

export { childNode, innermostNode, isLeafNode, nodeAt } from "@xzatoma/core";
export type { NumberCheck, ReadResult, StringCheck } from "@xzatoma/core";

/** One schema of the configuration, as the generator wrote it down. */
export type ConfigNode = SchemaNode;

/**
 * Reads `value` (plain data: parsed YAML, JSON, or values from the environment) with `node`:
 * what the zod schema `node` was generated from returns for it, or "not sure".
 */
export function readConfigValue(node: ConfigNode, value: unknown): ReadResult {
  return readSchemaValue(node, value, CONFIG_CHECKS);
}
