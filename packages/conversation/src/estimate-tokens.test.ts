import { describe, expect, it } from "vitest";
import {
  estimateMessageTokens,
  estimateMessagesTokens,
  estimateTextTokens,
} from "./estimate-tokens.js";
import { assistantMessage, userMessage } from "./message.js";

describe("token estimate", () => {
  it("rounds characters / 4 up", () => {
    expect(estimateTextTokens("")).toBe(0);
    expect(estimateTextTokens("abc")).toBe(1);
    expect(estimateTextTokens("abcde")).toBe(2);
  });

  it("counts tool call names and arguments of assistant messages", () => {
    const plain = assistantMessage("done");
    const withCall = assistantMessage("done", [
      { id: "1", name: "read_file", input: { path: "src/index.ts" } },
    ]);
    expect(estimateMessageTokens(withCall)).toBeGreaterThan(estimateMessageTokens(plain));
    expect(estimateMessageTokens(withCall)).toBe(1 + 3 + 6);
  });

  it("sums a conversation", () => {
    expect(estimateMessagesTokens([userMessage("abcd"), userMessage("abcdefgh")])).toBe(3);
  });
});
