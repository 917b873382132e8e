import { INPUT_NODES } from "./input-nodes.generated.js";
import type { INPUT_SCHEMAS } from "./input-schemas.js";
import { MODEL_INPUT_SCHEMAS } from "./model-input-schemas.generated.js";

/** The name of a built-in tool. */
export type BuiltinToolName = keyof typeof INPUT_SCHEMAS;

/**
 * A built-in tool's input for `defineTool`: the JSON Schema the model reads and the table
 * the zod-free schema reader reads a call's input with, both generated from the zod schema,
 * and the zod schema itself, imported only when the reader is not sure of an input (an
 * invalid one, which zod reports). Defining, offering and validly calling the built-in tools
 * thus loads no zod (docs/explanation/launch-path.md).
 */
export function builtinInput<Name extends BuiltinToolName>(name: Name) {
  return {
    modelInputSchema: MODEL_INPUT_SCHEMAS[name],
    inputNode: INPUT_NODES[name],
    loadInputSchema: () =>
      import("./input-schemas.js").then((schemas) => schemas.INPUT_SCHEMAS[name]),
  };
}
