// The local provider wraps its model with `withTextToolCalls(model, { requireValidArguments:
// true })`: a small model that writes the call as JSON text (fenced or bare) gets a real tool
// call, and the agent runs the tool; prose that shows or mentions JSON stays the answer.
import { Agent, defineTool, toolSuccess } from "@xzatoma/core";
import { scriptedModel } from "@xzatoma/scripted-servers/model";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { withTextToolCalls } from "../text-tool-calls.js";

/** A note-taking tool that records what it was asked to write. */
function notesTool(written: string[]) {
  return defineTool({
    name: "write_note",
    description: "Writes a note.",
    inputSchema: z.strictObject({ title: z.string(), lines: z.number().int().optional() }),
    access: "read",
    execute: async ({ title }) => {
      written.push(title);
      return toolSuccess(`Wrote the note '${title}'.`);
    },
  });
}

/** Runs the agent on a model whose first answer is `text`, then "Finished."; as the local provider wraps it. */
async function runWith(text: string) {
  const written: string[] = [];
  const model = withTextToolCalls(scriptedModel({ text }, { text: "Finished." }), {
    requireValidArguments: true,
  });
  const result = await new Agent({ model, tools: [notesTool(written)] }).run("Take a note.");
  return { written, result };
}

describe("tool calls written as text by a local model", () => {
  it("a fenced JSON call naming a known tool with valid arguments runs the tool", async () => {
    const { written, result } = await runWith(
      '```json\n{"name": "write_note", "arguments": {"title": "groceries"}}\n```',
    );
    expect(written).toEqual(["groceries"]);
    expect(result).toMatchObject({ stopReason: "completed", toolCalls: 1, text: "Finished." });
  });

  it("a bare JSON call runs the tool too, with its arguments as written", async () => {
    const { written, result } = await runWith(
      '{"name": "write_note", "arguments": {"title": "plans", "lines": 3}}',
    );
    expect(written).toEqual(["plans"]);
    expect(result.toolCalls).toBe(1);
  });

  it("an optional argument written as null is left out, as a small model means it; a required one stays text", async () => {
    const optional = await runWith(
      '{"name": "write_note", "arguments": {"title": "todo", "lines": null}}',
    );
    expect(optional.written).toEqual(["todo"]);
    expect(optional.result.toolCalls).toBe(1);
    const required = await runWith('{"name": "write_note", "arguments": {"title": null}}');
    expect(required.written).toEqual([]);
    expect(required.result.toolCalls).toBe(0);
  });

  it("prose that mentions or shows JSON stays the answer: no tool runs", async () => {
    for (const text of [
      'To take a note, send JSON like {"name": "write_note", "arguments": {"title": "x"}}.',
      'Here is an example:\n```json\n{"name": "write_note", "arguments": {"title": "x"}}\n```\nUse it when you need to.',
      "I will answer in JSON format: the note is saved.",
    ]) {
      const { written, result } = await runWith(text);
      expect({ text, written, calls: result.toolCalls }).toEqual({ text, written: [], calls: 0 });
      expect(result.text).toBe(text);
    }
  });

  it("JSON naming a tool the request does not offer, or with arguments that do not fit, stays text", async () => {
    for (const text of [
      '{"name": "delete_everything", "arguments": {}}',
      '{"name": "write_note", "arguments": {}}',
      '{"name": "write_note", "arguments": {"title": 42}}',
      '{"name": "write_note", "arguments": {"title": "x", "colour": "red"}}',
    ]) {
      const { written, result } = await runWith(text);
      expect({ text, written, calls: result.toolCalls }).toEqual({ text, written: [], calls: 0 });
      expect(result.text).toBe(text);
    }
  });
});
