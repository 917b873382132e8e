import { afterEach, describe, expect, it, vi } from "vitest";
import { estimateTextTokens } from "./estimate-tokens.js";
import { assistantMessage, toolMessage, userMessage } from "./message.js";
import { gptTokenizerInstalled } from "./test-support.js";
import {
  countMessageTokens,
  createHeuristicCounter,
  createTokenCounter,
  MESSAGE_OVERHEAD_TOKENS,
  usesO200kTokenizer,
} from "./token-counter.js";

describe("usesO200kTokenizer", () => {
  it.each([
    "gpt-4o",
    "gpt-4o-mini",
    "openai/gpt-4.1-mini",
    "copilot:gpt-5-mini",
    "gpt-5.1-codex-mini",
    "o1",
    "o3-mini",
    "o4-mini-high",
    "gpt-oss:20b",
    "chatgpt-4o-latest",
    "GPT-4o",
  ])("recognises %s", (model) => expect(usesO200kTokenizer(model)).toBe(true));

  it.each([
    "llama3.2:3b",
    "qwen3",
    "granite3.2:2b",
    "claude-sonnet-4",
    "gpt-4",
    "gpt-3.5-turbo",
    "olmo2",
  ])("leaves %s to the heuristic", (model) => expect(usesO200kTokenizer(model)).toBe(false));
});

describe("createTokenCounter", () => {
  afterEach(() => {
    vi.doUnmock("gpt-tokenizer/encoding/o200k_base");
    vi.resetModules();
  });

  it.skipIf(!gptTokenizerInstalled)(
    "uses o200k_base for OpenAI models when gpt-tokenizer is installed",
    async () => {
      const counter = await createTokenCounter("gpt-4o");
      expect(counter.name).toBe("o200k_base");
      expect(counter.count("hello world")).toBe(2);
      expect(counter.count("")).toBe(0);
      expect(counter.count("a <|endoftext|> in a tool output")).toBeGreaterThan(5); // no throw
    },
  );

  it("uses the heuristic for other models", async () => {
    expect((await createTokenCounter("llama3.2:3b")).name).toBe("heuristic");
  });

  it("falls back to the heuristic when gpt-tokenizer is not installed", async () => {
    vi.resetModules();
    vi.doMock("gpt-tokenizer/encoding/o200k_base", () => {
      throw new Error("Cannot find package 'gpt-tokenizer'");
    });
    const fresh = await import("./token-counter.js");
    const counter = await fresh.createTokenCounter("gpt-4o");
    expect(counter.name).toBe("heuristic");
    expect(counter.count("abcdefgh")).toBe(2);
  });
});

describe("the heuristic", () => {
  it("counts a quarter token per character, CJK characters at 0.7", () => {
    const counter = createHeuristicCounter();
    expect(counter.count("abcdefgh")).toBe(2);
    expect(estimateTextTokens("日本語")).toBe(3); // ceil(2.1)
    expect(estimateTextTokens("ab日本")).toBe(2); // ceil(0.5 + 1.4)
  });
});

describe("countMessageTokens", () => {
  it("adds the framing overhead, tool call ids, names and arguments", () => {
    const counter = createHeuristicCounter();
    expect(countMessageTokens(userMessage("abcd"), counter)).toBe(MESSAGE_OVERHEAD_TOKENS + 1);
    const call = assistantMessage("ok", [{ id: "c1", name: "read_file", input: { path: "a.ts" } }]);
    expect(countMessageTokens(call, counter)).toBe(MESSAGE_OVERHEAD_TOKENS + 1 + 1 + 3 + 4);
    const result = toolMessage({
      toolCallId: "c1",
      toolName: "read_file",
      content: "abcd",
      isError: false,
    });
    expect(countMessageTokens(result, counter)).toBe(MESSAGE_OVERHEAD_TOKENS + 1 + 1);
    const raw = assistantMessage("", [{ id: "c2", name: "x", input: "not json {" }]);
    expect(countMessageTokens(raw, counter)).toBe(MESSAGE_OVERHEAD_TOKENS + 1 + 1 + 3);
  });
});
