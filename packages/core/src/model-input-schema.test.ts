import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toModelInputSchema } from "./model-input-schema.js";

describe("toModelInputSchema", () => {
  const schema = z.object({ path: z.string().describe("a path"), limit: z.number().int() });

  it("gives each caller its own copy of a schema converted once", () => {
    const first = toModelInputSchema(schema);
    (first["properties"] as Record<string, unknown>)["path"] = "changed by a caller";
    const second = toModelInputSchema(schema);
    expect(second).toEqual({
      type: "object",
      properties: {
        path: { type: "string", description: "a path" },
        limit: { type: "integer" },
      },
      required: ["path", "limit"],
    });
    expect(second).not.toBe(first);
  });
});
