import type { ConfigFileShape } from "../config/config-schema.js";
import type { ConfigProblem, ConfigSource } from "./config-error.js";
import type { KeySegments } from "./key-path.js";

/** Where a value at a key path came from, and where it sits in the file when known. */
export type LocateValue = (
  segments: KeySegments,
  key?: string,
) => { readonly source: ConfigSource; readonly line?: number; readonly column?: number };

/**
 * What the loader asks of the configuration's schema. Two answer it: the reader generated
 * from the schema (`generated-schema-checks.ts`, no zod), which gives up with
 * {@link NOT_SURE} wherever it cannot answer exactly as zod would, and the zod schema itself
 * (`zod-schema-checks.ts`), which words the problems.
 */
export interface SchemaChecks {
  /** The problems of `value`, which sits at `prefix` (empty: the whole configuration). */
  problemsOf(value: unknown, prefix: KeySegments, locate: LocateValue): ConfigProblem[];
  /** The whole configuration after defaults, or its problems. */
  parse(
    value: unknown,
    locate: LocateValue,
  ): { readonly data: ConfigFileShape } | { readonly problems: ConfigProblem[] };
  /** Why a project's configuration file is ignored, or undefined when it is valid. */
  projectProblems(value: unknown): string | undefined;
  /** Calls `visit` for every leaf (a value that is not an object of config keys) in `value`. */
  forEachLeaf(value: unknown, visit: (keyPath: string) => void): void;
}

/** Thrown by the generated checks where only zod can answer; the loader then asks zod. */
export const NOT_SURE: unique symbol = Symbol("the generated configuration reader is not sure");
