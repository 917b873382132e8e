import { describe, expect, it } from "vitest";
import { toChatHistory } from "./prompt.js";

describe("AI SDK prompt to node-llama-cpp chat history", () => {
  it("folds tool calls, their results and the answer after them into one model turn", () => {
    const { history, warnings } = toChatHistory(
      [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "Weather in Paris and Rome?" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking." },
            { type: "tool-call", toolCallId: "a", toolName: "weather", input: { city: "Paris" } },
            { type: "tool-call", toolCallId: "b", toolName: "weather", input: '{"city":"Rome"}' },
          ],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "a",
              toolName: "weather",
              output: { type: "text", value: "Sunny" },
            },
            {
              type: "tool-result",
              toolCallId: "b",
              toolName: "weather",
              output: { type: "error-text", value: "no data" },
            },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "Paris is sunny." }] },
        { role: "user", content: [{ type: "text", text: "Thanks" }] },
      ],
      { parallelCalls: true },
    );
    expect(warnings).toEqual([]);
    expect(history).toEqual([
      { type: "system", text: "Be brief." },
      { type: "user", text: "Weather in Paris and Rome?" },
      {
        type: "model",
        response: [
          "Checking.",
          {
            type: "functionCall",
            name: "weather",
            params: { city: "Paris" },
            result: "Sunny",
            startsNewChunk: true,
          },
          {
            type: "functionCall",
            name: "weather",
            params: { city: "Rome" },
            result: "Error: no data",
          },
          "Paris is sunny.",
        ],
      },
      { type: "user", text: "Thanks" },
    ]);
  });

  it("ends with the open model turn when the last message is a tool result", () => {
    const { history } = toChatHistory([
      { role: "user", content: [{ type: "text", text: "Go" }] },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "a", toolName: "run", input: {} }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "a",
            toolName: "run",
            output: { type: "json", value: { ok: true } },
          },
        ],
      },
    ]);
    expect(history.at(-1)).toEqual({
      type: "model",
      response: [{ type: "functionCall", name: "run", params: {}, result: { ok: true } }],
    });
  });

  it("warns about parts it cannot show the model", () => {
    const { history, warnings } = toChatHistory([
      {
        role: "user",
        content: [
          { type: "text", text: "Look:" },
          {
            type: "file",
            data: { type: "url", url: new URL("https://x/y.png") },
            mediaType: "image/png",
          },
        ],
      },
    ]);
    expect(history).toEqual([{ type: "user", text: "Look:" }]);
    expect(warnings).toEqual([
      expect.objectContaining({ type: "unsupported", feature: "file parts" }),
    ]);
  });
});
