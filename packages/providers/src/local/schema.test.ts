import { z } from "zod";
import { describe, expect, it } from "vitest";
import { dropOptionalNulls, toGrammarSchema } from "./schema.js";

const toolSchema = z.toJSONSchema(
  z
    .object({
      path: z.string().min(1).describe("File to read"),
      limit: z.number().int().min(1).optional(),
      mode: z.enum(["text", "bytes"]).default("text"),
      tags: z.array(z.string()).max(3),
      note: z.string().nullable().optional(),
      target: z.union([z.string(), z.object({ line: z.number() })]),
      extra: z.unknown(),
    })
    .strict(),
  { io: "input" },
);

describe("tool schemas for the grammar", () => {
  it("keeps what the grammar can express and makes optional properties nullable", () => {
    expect(toGrammarSchema(toolSchema)).toEqual({
      type: "object",
      properties: {
        path: { type: "string", minLength: 1, description: "File to read" },
        limit: { oneOf: [{ type: "integer" }, { type: "null" }] },
        mode: { oneOf: [{ enum: ["text", "bytes"] }, { type: "null" }] },
        tags: { type: "array", items: { type: "string" }, maxItems: 3 },
        note: { type: ["string", "null"] },
        target: {
          oneOf: [{ type: "string" }, { type: "object", properties: { line: { type: "number" } } }],
        },
        extra: {
          oneOf: [
            { type: ["string", "number", "boolean", "null"] },
            { type: "array" },
            { type: "object", additionalProperties: true },
          ],
        },
      },
    });
  });

  it("carries definitions and references over", () => {
    const schema = {
      type: "object",
      properties: { node: { $ref: "#/definitions/Node" } },
      required: ["node"],
      definitions: { Node: { type: "object", properties: { id: { type: "string" } } } },
    };
    expect(toGrammarSchema(schema)).toEqual({
      type: "object",
      properties: { node: { $ref: "#/$defs/Node" } },
      $defs: {
        Node: {
          type: "object",
          properties: { id: { oneOf: [{ type: "string" }, { type: "null" }] } },
        },
      },
    });
  });

  it("drops the nulls of optional properties the model left out, and only those", () => {
    const input = {
      path: "a.txt",
      limit: null,
      mode: null,
      tags: [],
      note: null,
      target: { line: 3 },
      extra: null,
    };
    expect(dropOptionalNulls(input, toolSchema)).toEqual({
      path: "a.txt",
      tags: [],
      note: null, // nullable in the schema: the model may mean null
      target: { line: 3 },
      extra: null, // required
    });
  });
});
