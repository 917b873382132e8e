import type { z } from "zod";

/** Each input schema's JSON Schema, converted once per schema object. */
const converted = new WeakMap<z.ZodType, Record<string, unknown>>();

/**
 * The JSON Schema of a tool's input as every provider sends it to the model. zod's `$schema`
 * URI and the safe-integer bounds it writes for each integer (±9007199254740991) tell a model
 * nothing and cost bytes on every request, so they are left out; the registry still validates
 * calls with the zod schema, which keeps those bounds. It uses the schema's own conversion,
 * so this module loads no zod of its own.
 */
export function toModelInputSchema(schema: z.ZodType): Record<string, unknown> {
  // Tools keep their input schema in a module constant, so a service that builds a fresh
  // runtime per event converts each schema once; callers get their own copy to change.
  let json = converted.get(schema);
  if (json === undefined) {
    if (typeof schema.toJSONSchema !== "function") {
      throw new TypeError(
        "The input schema has no toJSONSchema(): use a zod 4 release that has it, or give the tool its modelInputSchema.",
      );
    }
    json = schema.toJSONSchema({
      io: "input",
      override: ({ jsonSchema }) => {
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      },
    }) as Record<string, unknown>;
    delete json["$schema"];
    converted.set(schema, json);
  }
  return structuredClone(json);
}
