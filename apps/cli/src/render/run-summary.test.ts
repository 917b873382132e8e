import { toolSuccess, type AgentEvent, type AgentResult } from "@xzatoma/core";
import { expect, it } from "vitest";
import { createRunSummary } from "./run-summary.js";

const result: AgentResult = {
  stopReason: "completed",
  text: "Done.",
  turns: 3,
  toolCalls: 2,
  usage: { inputTokens: 1500, outputTokens: 34, totalTokens: 1534 },
  durationMs: 4230,
};

const wrote = (toolName: string, metadata: Record<string, string | boolean>): AgentEvent => ({
  type: "tool-result",
  turn: 1,
  toolCallId: toolName,
  toolName,
  result: toolSuccess("ok", metadata),
  durationMs: 1,
});

it("says how the run ended, its size, its conversation and the files the tools changed", () => {
  const summary = createRunSummary();
  summary.onEvent(wrote("write_file", { path: "notes.md" }));
  summary.onEvent(wrote("edit_file", { path: "same.md", changed: false }));
  summary.onEvent(wrote("move_path", { source: "a.txt", destination: "b.txt" }));
  summary.onEvent(wrote("read_file", { path: "README.md" }));
  expect(summary.lines(result, "01JXZ0000000000000000000AB")).toEqual([
    "completed: 3 turns, 2 tool calls, 1534 tokens (1500 in, 34 out), 4.2 s",
    "conversation 01JXZ0000000000000000000AB (xzatoma history show 01JXZ0000000000000000000AB)",
    "files changed: notes.md, b.txt",
  ]);
});

it("says when the file tools changed nothing, and leaves out a conversation not saved", () => {
  expect(createRunSummary().lines({ ...result, turns: 1, toolCalls: 1 }, undefined)).toEqual([
    "completed: 1 turn, 1 tool call, 1534 tokens (1500 in, 34 out), 4.2 s",
    "files changed: none by the file tools",
  ]);
});

it("adds the whole tree's tokens when subagents spent some", () => {
  const tree = { inputTokens: 2100, outputTokens: 400, totalTokens: 2500 };
  expect(createRunSummary().lines({ ...result, treeUsage: tree }, undefined)).toEqual([
    "completed: 3 turns, 2 tool calls, 1534 tokens (1500 in, 34 out), 4.2 s",
    "with its subagents: 2500 tokens (2100 in, 400 out)",
    "files changed: none by the file tools",
  ]);
  // A tree whose top-level agent spent every token says nothing more.
  expect(createRunSummary().lines({ ...result, treeUsage: result.usage }, undefined)).toHaveLength(
    2,
  );
});
