import { expect, it } from "vitest";
import { formatStatusLine, parseContextLine } from "./status-line.js";

const state = {
  mode: "planning",
  approvalPolicy: "untrusted",
  provider: "ollama",
  model: "llama3.2:latest",
} as const;

it("shows the model, mode, approval policy, context and tokens", () => {
  expect(
    formatStatusLine(state, { totalTokens: 1234, contextTokens: 2546, contextMax: 91_808 }),
  ).toBe(
    "ollama: llama3.2:latest · planning · approvals untrusted · context 3% of 92k · 1.2k tokens",
  );
  expect(formatStatusLine(state, { totalTokens: 0, costUsd: 0.0412 })).toBe(
    "ollama: llama3.2:latest · planning · approvals untrusted · 0 tokens · $0.04",
  );
});

it("escapes a model name that came from the server", () => {
  expect(formatStatusLine({ ...state, model: "m\x1b[2J" }, { totalTokens: 0 })).toContain(
    "m\\x1b[2J",
  );
});

it("reads the chat's /context line", () => {
  expect(
    parseContextLine("Context: 2546 tokens used, 89262 left of 91808 (3%, ok, estimated)"),
  ).toEqual({
    tokens: 2546,
    max: 91_808,
  });
  expect(parseContextLine("nothing")).toBeUndefined();
});
