import { CONFIG_NODE } from "../config/config-reader.generated.js";
import type { ConfigFileShape } from "../config/config-schema.js";
import {
  childNode,
  isLeafNode,
  nodeAt,
  readConfigValue,
  type ConfigNode,
} from "../config/config-reader.js";
import { formatKeyPath, type KeySegments } from "./key-path.js";
import { NOT_SURE, type SchemaChecks } from "./schema-checks.js";

function forEachLeaf(
  value: unknown,
  visit: (keyPath: string) => void,
  segments: KeySegments,
  node: ConfigNode | undefined,
): void {
  // The same walk as the zod schema's (see zod-schema-checks.ts), over the generated table.
  if (node === undefined) return;
  if (segments.length > 0 && isLeafNode(node)) {
    if (value !== undefined) visit(formatKeyPath(segments));
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    forEachLeaf(child, visit, [...segments, key], childNode(node, key));
  }
}

/**
 * The schema checks of the reader generated from the configuration's zod schema: a value it
 * reads is valid and comes out as zod would give it; anything else throws {@link NOT_SURE}.
 */
export const generatedSchemaChecks: SchemaChecks = {
  problemsOf(value, prefix) {
    const node = nodeAt(CONFIG_NODE, prefix);
    if (node === undefined || readConfigValue(node, value).ok) return [];
    throw NOT_SURE;
  },
  parse(value) {
    const read = readConfigValue(CONFIG_NODE, value);
    if (!read.ok) throw NOT_SURE;
    return { data: read.value as ConfigFileShape };
  },
  projectProblems(value) {
    if (readConfigValue(CONFIG_NODE, value).ok) return undefined;
    throw NOT_SURE;
  },
  forEachLeaf(value, visit) {
    forEachLeaf(value, visit, [], CONFIG_NODE);
  },
};
