import type { ChatHistoryItem } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { LOCAL_TOOL_INSTRUCTIONS, withToolInstructions } from "./tool-instructions.js";

describe("the local provider's tool instructions", () => {
  it("end the first system message, and the history given is not changed", () => {
    const history: ChatHistoryItem[] = [
      { type: "system", text: "You are XZatoma." },
      { type: "user", text: "What version is this?" },
      { type: "system", text: "A later note." },
    ];
    const copy = structuredClone(history);
    expect(withToolInstructions(history, LOCAL_TOOL_INSTRUCTIONS)).toEqual([
      { type: "system", text: `You are XZatoma.\n${LOCAL_TOOL_INSTRUCTIONS}` },
      { type: "user", text: "What version is this?" },
      { type: "system", text: "A later note." },
    ]);
    expect(history).toEqual(copy);
  });

  it("are a system message of their own when the history has none", () => {
    expect(withToolInstructions([{ type: "user", text: "Hi" }], "Use tools.")).toEqual([
      { type: "system", text: "Use tools." },
      { type: "user", text: "Hi" },
    ]);
  });

  it("tell the model to reply with the call alone and to write paths relative to the workspace", () => {
    expect(LOCAL_TOOL_INSTRUCTIONS).toMatch(/tool call alone/);
    expect(LOCAL_TOOL_INSTRUCTIONS).toMatch(/relative to the workspace/);
  });
});
