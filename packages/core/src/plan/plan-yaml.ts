import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let yamlModule: typeof Yaml | undefined;
/**
 * The yaml package (72 files), loaded on the first YAML plan rather than with this module:
 * a run without a plan never needs it (docs/explanation/start-up-and-memory.md).
 */
function yaml(): typeof Yaml {
  return (yamlModule ??= createRequire(import.meta.url)("yaml") as typeof Yaml);
}

/** Aliases a plan may expand at most (the yaml package's guard against alias bombs). */
const MAX_ALIAS_COUNT = 100;

/**
 * The value of YAML text, refusing a key that a mapping repeats. The yaml package's own
 * check of unique keys compares every key with every other: 50,000 keys (a 680 KB event
 * payload) took 26 s. This check is one pass with a set per mapping. Throws an Error whose
 * message's first line says what is wrong and where.
 */
export function parseYamlStrictly(text: string): unknown {
  const { LineCounter, isMap, isScalar, parseDocument, visit } = yaml();
  const lines = new LineCounter();
  const document = parseDocument(text, { uniqueKeys: false, lineCounter: lines });
  const [error] = document.errors;
  if (error !== undefined) throw new Error(error.message);
  visit(document, {
    Map(_key, map) {
      if (!isMap(map)) return;
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (seen.has(key)) {
          const at =
            isScalar(pair.key) && pair.key.range ? lines.linePos(pair.key.range[0]) : undefined;
          throw new Error(
            `Map keys must be unique: '${key}' is repeated${at ? ` at line ${at.line}, column ${at.col}` : ""}`,
          );
        }
        seen.add(key);
      }
    },
  });
  return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
}
