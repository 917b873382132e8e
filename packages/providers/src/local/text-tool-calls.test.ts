// The local provider wraps its model with `withTextToolCalls(model, { requireValidArguments:
// true })`: a small model that writes the call as JSON text (fenced or bare, alone or inside
// prose) gets a real tool call, and the agent runs the tool; prose that only mentions JSON,
// or shows JSON naming no offered tool, stays the answer.
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

  it("a call inside prose, fenced or bare, runs the tool; the prose stays the answer's words", async () => {
    // Until the in-prose rule, both of these stayed text. Small models answer this way
    // (Qwen2.5-Coder 1.5B did in three of ten measured tasks): the one JSON object naming
    // an offered tool with arguments that fit it is the call they mean.
    for (const [text, title] of [
      [
        'To take the note, I call the tool:\n```json\n{\n  "name": "write_note",\n  "arguments": {"title": "milk"}\n}\n```\nThis will save it.',
        "milk",
      ],
      ['I will use {"name": "write_note", "arguments": {"title": "eggs"}} to save it.', "eggs"],
    ] as const) {
      const { written, result } = await runWith(text);
      expect(written).toEqual([title]);
      expect(result).toMatchObject({ stopReason: "completed", toolCalls: 1, text: "Finished." });
    }
  });

  it("prose that only mentions JSON, or shows JSON naming no offered tool, stays the answer: no tool runs", async () => {
    for (const text of [
      "I will answer in JSON format: the note is saved.",
      'Here is an example:\n```json\n{"name": "make_coffee", "arguments": {"size": "large"}}\n```\nUse it when you need to.',
      'Set {"indent": 2} in the settings file and the note is formatted.',
      // Two calls shown: which one is meant is unclear, so neither runs.
      'Either {"name": "write_note", "arguments": {"title": "a"}} or {"name": "write_note", "arguments": {"title": "b"}} works.',
      // The one call in prose has arguments that do not fit the tool.
      'Call it like this:\n```json\n{"name": "write_note", "arguments": {"title": 7}}\n```',
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
