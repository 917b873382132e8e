import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let loaded: typeof Yaml | undefined;

/**
 * The yaml package (72 files), loaded when a configuration file is read or written rather
 * than at start-up: a run without a configuration file never needs it
 * (docs/explanation/start-up-and-memory.md). Node's `require` of yaml gives the same CommonJS
 * build an `import` does.
 */
export function yaml(): typeof Yaml {
  return (loaded ??= createRequire(import.meta.url)("yaml") as typeof Yaml);
}
