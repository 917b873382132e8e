import { createToolRegistry, defineTool, toolSuccess } from "@xzatoma/core";
import { describe, expect, it } from "vitest";
import { MAX_INPUT_SCHEMA_CHARS, mcpToolInputSchema } from "./mcp-tools.js";
import { passThroughInput } from "./pass-through-input.js";

/** The JSON Schema the registry sends the model for a server's input schema. */
function sent(jsonSchema: Record<string, unknown>): Record<string, unknown> {
  const registry = createToolRegistry();
  registry.register(
    defineTool({
      name: "server__tool",
      description: "a server's tool",
      modelInputSchema: mcpToolInputSchema(jsonSchema),
      loadInputSchema: () => Promise.resolve(passThroughInput),
      access: "write",
      assess: () => ({ verdict: "confirm", reason: "asks." }),
      execute: () => Promise.resolve(toolSuccess("done")),
    }),
  );
  const [specification] = registry.specifications();
  return specification?.inputSchema ?? {};
}

describe("an MCP tool's input schemas", () => {
  it("sends a well-formed server schema as it is", () => {
    const schema = {
      type: "object",
      properties: { path: { type: "string", description: "where" } },
      required: ["path"],
      additionalProperties: false,
    };
    expect(sent(schema)).toEqual(schema);
  });

  it("always sends an object schema, whatever type or combinator the server puts at the top", () => {
    for (const hostile of [
      { type: "string" },
      { type: ["object", "null"] },
      { $ref: "#/definitions/x", definitions: { x: { type: "string" } } },
      { anyOf: [{ type: "string" }, { type: "number" }] },
      { not: { type: "object" } },
      { $schema: "http://json-schema.org/draft-07/schema#", $id: "x", id: "y" },
    ]) {
      const json = sent(hostile);
      expect(json["type"], JSON.stringify(hostile)).toBe("object");
      for (const key of ["$ref", "anyOf", "not", "$schema", "$id", "id"])
        expect(json, JSON.stringify(hostile)).not.toHaveProperty(key);
    }
  });

  it("drops properties, required and additionalProperties of the wrong shape", () => {
    expect(
      sent({ type: "object", properties: 5, required: "x", additionalProperties: "no" }),
    ).toEqual({ type: "object", properties: {}, additionalProperties: {} });
    expect(sent({ type: "object", required: [1, "a"] })).not.toHaveProperty("required");
  });

  it("sends an empty object schema for a schema larger than the limit", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 4000 }, (_, index) => [`p${index}`, { type: "string" }]),
    );
    expect(JSON.stringify(properties).length).toBeGreaterThan(MAX_INPUT_SCHEMA_CHARS);
    expect(sent({ type: "object", properties })).toEqual({
      type: "object",
      properties: {},
      additionalProperties: {},
    });
  });

  it("still accepts any object as input (the server checks its own arguments)", () => {
    expect(passThroughInput.safeParse({ anything: [1, 2] }).success).toBe(true);
    expect(passThroughInput.safeParse("text").success).toBe(false);
  });
});
