import { Agent, defineTool, toolSuccess } from "@xzatoma/core";
import { startScriptedOllama, type ScriptedOllama } from "@xzatoma/scripted-servers/ollama";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createOllamaModel } from "./ollama.js";
import { parseTextToolCalls } from "./text-tool-calls.js";

let server: ScriptedOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const listDirectory = defineTool({
  name: "list_directory",
  description: "Lists.",
  inputSchema: z.object({ path: z.string() }).strict(),
  access: "read",
  execute: async ({ path }) => toolSuccess(`listing of ${path}`),
});

describe("Ollama model set-up", () => {
  it("asks for a context window (num_ctx) capped at the model's trained length from /api/show", async () => {
    server = await startScriptedOllama({ scenario: () => ({ content: "ok" }) });
    let reported: number | undefined;
    const model = createOllamaModel({
      host: server.url,
      contextWindow: 200_000,
      onModelInfo: (info) => (reported = info.contextLength),
    });
    await new Agent({ model, tools: [listDirectory] }).run("hi");
    expect(reported).toBe(131072);
    expect(server.requests[0]?.options).toMatchObject({ num_ctx: 131072 });
    const small = createOllamaModel({ host: server.url, contextWindow: 8192 });
    await new Agent({ model: small }).run("hi");
    expect(server.requests[1]?.options).toMatchObject({ num_ctx: 8192 });
  });

  it("turns a tool call the model wrote as text into a real call", async () => {
    server = await startScriptedOllama({
      scenario: (request) =>
        request.messages.some((message) => message.role === "tool")
          ? {
              content: `Got: ${request.messages.findLast((message) => message.role === "tool")?.content ?? ""}`,
            }
          : {
              content:
                '<tool_call>{"name": "list_directory", "arguments": {"path": "src"}}</tool_call>',
            },
    });
    const result = await new Agent({
      model: createOllamaModel({ host: server.url }),
      tools: [listDirectory],
    }).run("list src");
    expect(result).toMatchObject({
      stopReason: "completed",
      text: "Got: listing of src",
      toolCalls: 1,
    });
  });

  it("recognises the common encodings and only for offered tools", () => {
    const tools = new Set(["read_file"]);
    expect(parseTextToolCalls('{"name": "read_file", "arguments": {"path": "a"}}', tools)).toEqual([
      { name: "read_file", input: { path: "a" } },
    ]);
    expect(
      parseTextToolCalls('```json\n{"name": "read_file", "parameters": {"path": "b"}}\n```', tools),
    ).toEqual([{ name: "read_file", input: { path: "b" } }]);
    expect(
      parseTextToolCalls(
        '[{"function": {"name": "read_file", "arguments": "{\\"path\\": \\"c\\"}"}}]',
        tools,
      ),
    ).toEqual([{ name: "read_file", input: { path: "c" } }]);
    expect(parseTextToolCalls('{"name": "rm_rf", "arguments": {}}', tools)).toEqual([]);
    expect(parseTextToolCalls("The answer is {42}.", tools)).toEqual([]);
  });
});

describe("Ollama models without tool support", () => {
  it("are refused with a message naming models that can call tools", async () => {
    server = await startScriptedOllama({ scenario: () => ({ content: "ok" }) });
    const result = await new Agent({
      model: createOllamaModel({ host: server.url, model: "tiny-notools" }),
      tools: [listDirectory],
    }).run("hi");
    expect(result.error?.message).toBe(
      "The Ollama model 'tiny-notools' cannot call tools, which XZatoma needs. Choose one that can, such as llama3.2, qwen2.5, mistral-nemo.",
    );
    expect(server.requests).toHaveLength(0);
  });
});
