// The zod-free schema reader against zod itself, and the registry using it: a valid call is
// read without loading the tool's zod schema and runs with exactly what zod's parse would
// give; anything the reader is not sure of is validated and reported by zod as before.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../tool.js";
import { createToolRegistry, type ApprovalRequest } from "../tool-registry.js";
import { toolSuccess } from "../tool-result.js";
import { mutationsOf, readerAgreement } from "./reader-agreement.js";
import { schemaNodeOf } from "./schema-node-of.js";
import { readSchemaValue } from "./schema-reader.js";

const signal = new AbortController().signal;

const noteInput = z
  .object({
    title: z.string().trim().min(1).max(20),
    mode: z.enum(["edit", "append"]).default("edit"),
    lines: z.number().int().min(1).max(10).optional(),
    tags: z.array(z.string().min(1)).max(3).default([]),
    urgent: z.boolean().default(false),
  })
  .strict();

/** A tool whose zod schema counts its loads and whose execution reports what it was given. */
function noteTool(options: { withReader: boolean }) {
  const counts = { loads: 0 };
  const seen: unknown[] = [];
  const tool = defineTool({
    name: "note",
    description: "Writes a note.",
    modelInputSchema: { type: "object" },
    loadInputSchema: async () => {
      counts.loads += 1;
      return noteInput;
    },
    ...(options.withReader ? { inputNode: schemaNodeOf(noteInput) } : {}),
    access: "write",
    async execute(input) {
      seen.push(input);
      return toolSuccess("noted");
    },
  });
  return { tool, counts, seen };
}

const approveAll = { signal, approve: () => ({ approved: true }) };

describe("the schema reader", () => {
  it("answers exactly what zod's parse gives, or not sure, on samples and their mutations", () => {
    const corpus = [
      { title: "a" },
      { title: "  shopping  ", mode: "append", lines: 3, tags: ["x", "y"], urgent: true },
    ].flatMap(mutationsOf);
    const agreement = readerAgreement(noteInput, schemaNodeOf(noteInput), corpus);
    expect(agreement.wrong).toEqual([]);
    // Every input zod accepts is one the reader decides: the schema has nothing it cannot read.
    expect(agreement.undecided).toEqual([]);
    expect(agreement.accepted).toBeGreaterThan(10);
    expect(agreement.samples - agreement.accepted).toBeGreaterThan(100);
  });

  it("is not sure of a refinement, a rule or a step it has no function for (fail closed)", () => {
    const refined = z.string().refine((value) => value !== "secret");
    const node = schemaNodeOf(refined);
    expect(node.kind).toBe("unsure");
    expect(readSchemaValue(node, "anything")).toEqual({ ok: false });
    // A table naming a function the reader is not given: not sure, never valid.
    expect(readSchemaValue({ kind: "string", checks: [{ refine: "isFine" }] }, "text")).toEqual({
      ok: false,
    });
    expect(readSchemaValue({ kind: "string", checks: [{ refine: "toString" }] }, "text")).toEqual({
      ok: false,
    });
  });
});

describe("a tool with a generated reader", () => {
  it("runs a valid call with what zod would give, without loading its zod schema", async () => {
    const { tool, counts, seen } = noteTool({ withReader: true });
    const registry = createToolRegistry();
    registry.register(tool);
    const result = await registry.execute(
      { toolCallId: "1", toolName: "note", input: JSON.stringify({ title: "  milk " }) },
      approveAll,
    );
    expect(result.success).toBe(true);
    expect(counts.loads).toBe(0);
    expect(seen).toEqual([noteInput.parse({ title: "  milk " })]);
    expect(seen[0]).toEqual({ title: "milk", mode: "edit", tags: [], urgent: false });
  });

  it("loads the zod schema for an invalid call and reports it in zod's words, as without a reader", async () => {
    const bad = JSON.stringify({ title: "", lines: 0, colour: "red" });
    const messages: string[] = [];
    for (const withReader of [true, false]) {
      const { tool, counts, seen } = noteTool({ withReader });
      const registry = createToolRegistry();
      registry.register(tool);
      const result = await registry.execute(
        { toolCallId: "1", toolName: "note", input: bad },
        approveAll,
      );
      expect(result.success).toBe(false);
      expect(result.metadata["invalidInput"]).toBe(true);
      expect(counts.loads).toBe(1);
      expect(seen).toEqual([]);
      messages.push(result.error ?? "");
    }
    expect(messages[0]).toBe(messages[1]);
    expect(messages[0]).toMatch(/^Invalid input for 'note': .*title.*lines/);
    expect(messages[0]).toMatch(/colour/);
  });

  it("reads an edited input the same way: a valid edit loads no zod, an invalid one is refused", async () => {
    const { tool, counts, seen } = noteTool({ withReader: true });
    const registry = createToolRegistry();
    registry.register(tool);
    const edited = await registry.execute(
      { toolCallId: "1", toolName: "note", input: JSON.stringify({ title: "milk" }) },
      {
        signal,
        approve: (request: ApprovalRequest) => {
          expect(request.input).toEqual({ title: "milk", mode: "edit", tags: [], urgent: false });
          return { approved: true, editedInput: { title: " eggs ", urgent: true } };
        },
      },
    );
    expect(edited.success).toBe(true);
    expect(counts.loads).toBe(0);
    expect(seen).toEqual([{ title: "eggs", mode: "edit", tags: [], urgent: true }]);

    const refused = await registry.execute(
      { toolCallId: "2", toolName: "note", input: JSON.stringify({ title: "milk" }) },
      { signal, approve: () => ({ approved: true, editedInput: { title: 7 } }) },
    );
    expect(refused.success).toBe(false);
    expect(refused.error).toMatch(/^The edited input for 'note' is invalid: title: /);
    expect(counts.loads).toBe(1);
  });
});
