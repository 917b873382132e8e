import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isXzatomaError } from "./errors.js";
import { defineTool } from "./tool.js";
import { createToolRegistry } from "./tool-registry.js";
import { toolResultToModelText, toolSuccess } from "./tool-result.js";

const signal = new AbortController().signal;

describe("tool registry", () => {
  it("publishes JSON Schema specifications of its tools", () => {
    const registry = createToolRegistry();
    registry.register(
      defineTool({
        name: "greet",
        description: "Greets.",
        inputSchema: z
          .object({ name: z.string().describe("who"), loud: z.boolean().default(false) })
          .strict(),
        access: "read",
        execute: async ({ name }) => toolSuccess(name),
      }),
    );
    expect(registry.specifications()[0]).toMatchObject({
      name: "greet",
      inputSchema: {
        type: "object",
        properties: { name: { type: "string", description: "who" }, loud: { type: "boolean" } },
        required: ["name"],
        additionalProperties: false,
      },
    });
  });

  it("refuses a duplicate name with a coded error and rejects invalid names", () => {
    const registry = createToolRegistry();
    const tool = defineTool({
      name: "a",
      description: "",
      inputSchema: z.object({}),
      access: "read",
      execute: async () => toolSuccess(""),
    });
    registry.register(tool);
    let caught: unknown;
    try {
      registry.register(tool);
    } catch (error) {
      caught = error;
    }
    expect(isXzatomaError(caught) && caught.code).toBe("TOOL_ALREADY_REGISTERED");
    expect(() =>
      defineTool({
        name: "bad name",
        description: "",
        inputSchema: z.object({}),
        access: "read",
        execute: async () => toolSuccess(""),
      }),
    ).toThrow(/invalid/);
  });

  it("caps output on a character boundary and records the original size", async () => {
    const registry = createToolRegistry({ maxOutputBytes: 10 });
    registry.register(
      defineTool({
        name: "big",
        description: "",
        inputSchema: z.object({}),
        access: "read",
        execute: async () => toolSuccess("aaaaaaaaa€€€"),
      }),
    );
    const result = await registry.execute(
      { toolCallId: "1", toolName: "big", input: "{}" },
      { signal },
    );
    expect(result.output).toBe("aaaaaaaaa");
    expect(result.truncated).toBe(true);
    expect(result.metadata).toMatchObject({ originalBytes: 18, shownBytes: 9 });
    expect(toolResultToModelText(result)).toContain("[Output truncated: showed 9 of 18 bytes");
  });

  it("stops a tool that outlives its timeout and tells the model", async () => {
    let sawAbort = false;
    const registry = createToolRegistry({ defaultTimeoutMs: 20 });
    registry.register(
      defineTool({
        name: "stuck",
        description: "",
        inputSchema: z.object({}),
        access: "read",
        execute: (_input, context) =>
          new Promise(() => context.signal.addEventListener("abort", () => (sawAbort = true))),
      }),
    );
    const result = await registry.execute(
      { toolCallId: "1", toolName: "stuck", input: "" },
      { signal },
    );
    expect(result.success).toBe(false);
    expect(result.error).toContain("did not finish within 20 ms");
    expect(sawAbort).toBe(true);
  });
});
