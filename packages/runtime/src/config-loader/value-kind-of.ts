import { z } from "zod";
import { innermostSchema } from "./schema-walk.js";
import type { ValueKind } from "./value-kinds.js";

/**
 * How text for a leaf schema (its innermost type, see `innermostSchema`) is read; undefined
 * for values text cannot hold (mappings of options).
 */
export function valueKindOf(schema: z.ZodType): ValueKind | undefined {
  if (schema instanceof z.ZodNumber) return "number";
  if (schema instanceof z.ZodBoolean) return "boolean";
  if (schema instanceof z.ZodString || schema instanceof z.ZodEnum) return "text";
  if (schema instanceof z.ZodArray) {
    return innermostSchema(schema.element as z.ZodType) instanceof z.ZodNumber
      ? "numberList"
      : "list";
  }
  if (schema instanceof z.ZodUnion) {
    const options = (schema.options as z.ZodType[]).map(innermostSchema);
    const number = options.some((option) => option instanceof z.ZodNumber);
    const off = options.some(
      (option) => option instanceof z.ZodLiteral && option.values.has(false),
    );
    if (number && off) return "fractionOrOff";
  }
  return undefined;
}
