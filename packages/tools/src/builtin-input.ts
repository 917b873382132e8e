import type { INPUT_SCHEMAS } from "./input-schemas.js";
import { MODEL_INPUT_SCHEMAS } from "./model-input-schemas.generated.js";

/** The name of a built-in tool. */
export type BuiltinToolName = keyof typeof INPUT_SCHEMAS;

/**
 * A built-in tool's input for `defineTool`: the JSON Schema the model reads, generated at
 * build time, and its zod schema, imported on the tool's first call. Defining and offering
 * the built-in tools thus loads no zod (docs/explanation/launch-path.md).
 */
export function builtinInput<Name extends BuiltinToolName>(name: Name) {
  return {
    modelInputSchema: MODEL_INPUT_SCHEMAS[name],
    loadInputSchema: () =>
      import("./input-schemas.js").then((schemas) => schemas.INPUT_SCHEMAS[name]),
  };
}
