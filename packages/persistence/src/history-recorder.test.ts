import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  createConversation,
  systemMessage,
  userMessage,
  assistantMessage,
} from "@xzatoma/conversation";
import type { AgentEvent } from "@xzatoma/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHistoryRecorder } from "./history-recorder.js";
import type { History } from "./history.js";
import { openHistory } from "./open-history.js";

let dir: string;
let history: History;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "xz-recorder-"));
  history = openHistory({ path: path.join(dir, "history.db") });
});

afterEach(async () => {
  history.close();
  await rm(dir, { recursive: true, force: true });
});

const usage = (tokens: number) => ({
  inputTokens: tokens,
  outputTokens: 1,
  totalTokens: tokens + 1,
});

describe("the history recorder, a listener on the agent's events", () => {
  it("writes each finished turn when the next starts, and the outcome when the run finishes", () => {
    const conversation = createConversation({ maxTokens: 100_000, pruneThreshold: false });
    conversation.append(systemMessage("system prompt"), { pinned: true });
    const recorder = createHistoryRecorder(history, {
      title: (first) => `T: ${first}`,
      describe: () => ({ provider: "ollama", model: "m1" }),
      entries: () => conversation.entries(),
    });
    const feed = (event: AgentEvent) => recorder.onEvent(event);
    feed({ type: "run-started", input: "hello", tools: [] });
    conversation.append(userMessage("hello"));
    feed({ type: "turn-started", turn: 1 });
    feed({ type: "usage", turn: 1, usage: usage(10), totals: usage(10) });
    conversation.append(assistantMessage("thinking", []));
    expect(recorder.conversationId).toBeUndefined();
    feed({ type: "turn-started", turn: 2 });
    // The first turn is stored before the second request: a crash now keeps it.
    const id = recorder.conversationId;
    expect(id).toEqual(expect.any(String));
    const stored = history.getConversation(id!);
    expect(stored?.title).toBe("T: hello");
    expect(stored?.provider).toBe("ollama");
    expect(stored?.messages.map((m) => m.message.content)).toEqual(["hello", "thinking"]);
    expect(stored?.status).toBe("running");

    conversation.append(assistantMessage("done", []));
    feed({
      type: "finished",
      stopReason: "completed",
      text: "done",
      turns: 2,
      toolCalls: 0,
      usage: usage(30),
      durationMs: 5,
    });
    const finished = history.getConversation(id!);
    expect(finished?.status).toBe("completed");
    expect(finished?.turns).toBe(2);
    expect(finished?.usage.inputTokens).toBe(30);
    expect(finished?.messages).toHaveLength(3);

    // A second run continues the same conversation and adds to its totals.
    feed({ type: "run-started", input: "again", tools: [] });
    conversation.append(userMessage("again"));
    conversation.append(assistantMessage("ok", []));
    feed({
      type: "finished",
      stopReason: "max-turns",
      text: "ok",
      turns: 1,
      toolCalls: 0,
      usage: usage(5),
      durationMs: 5,
    });
    const again = history.getConversation(id!);
    expect(again?.messages.map((m) => m.message.content)).toEqual([
      "hello",
      "thinking",
      "done",
      "again",
      "ok",
    ]);
    expect(again?.status).toBe("stopped");
    expect(again?.turns).toBe(3);
    expect(again?.usage.inputTokens).toBe(35);
  });

  it("commits once per write: the first turn with the new conversation, the end with the outcome", () => {
    const conversation = createConversation({ maxTokens: 100_000, pruneThreshold: false });
    const commits: number[] = [];
    const counted: History = {
      ...history,
      batch: (writes) => {
        commits.push(1);
        return history.batch(writes);
      },
    };
    const recorder = createHistoryRecorder(counted, {
      title: (first) => first,
      describe: () => ({ provider: "ollama", model: "m1" }),
      entries: () => conversation.entries(),
    });
    recorder.onEvent({ type: "run-started", input: "task", tools: [] });
    conversation.append(userMessage("task"));
    recorder.onEvent({ type: "turn-started", turn: 1 });
    // A subagent's parent makes sure it is stored: the conversation and its message, once.
    const id = recorder.store();
    expect(commits).toHaveLength(1);
    expect(history.getConversation(id!)?.messages).toHaveLength(1);
    conversation.append(assistantMessage("calls a subagent", []));
    // Stored already: asking again writes nothing (the new message goes in with its turn).
    expect(recorder.store()).toBe(id);
    expect(commits).toHaveLength(1);
    conversation.append(assistantMessage("answer", []));
    recorder.onEvent({
      type: "finished",
      stopReason: "completed",
      text: "answer",
      turns: 1,
      toolCalls: 0,
      usage: usage(3),
      durationMs: 1,
    });
    expect(commits).toHaveLength(2);
    const stored = history.getConversation(id!);
    expect(stored?.status).toBe("completed");
    expect(stored?.messages.map((m) => m.message.content)).toEqual([
      "task",
      "calls a subagent",
      "answer",
    ]);
  });

  it("keeps nothing of a write that failed, and writes it all at the next try", () => {
    const conversation = createConversation({ maxTokens: 100_000, pruneThreshold: false });
    let failNext = true;
    const flaky: History = {
      ...history,
      // The outcome fails once, after the messages were written in the same transaction.
      finishConversation: (id, outcome) => {
        if (failNext) {
          failNext = false;
          throw new Error("disk full");
        }
        history.finishConversation(id, outcome);
      },
    };
    const recorder = createHistoryRecorder(flaky, {
      title: (first) => first,
      describe: () => ({ provider: "ollama", model: "m1" }),
      entries: () => conversation.entries(),
    });
    const finished: AgentEvent = {
      type: "finished",
      stopReason: "completed",
      text: "done",
      turns: 1,
      toolCalls: 0,
      usage: usage(3),
      durationMs: 1,
    };
    recorder.onEvent({ type: "run-started", input: "hi", tools: [] });
    conversation.append(userMessage("hi"));
    conversation.append(assistantMessage("done", []));
    expect(() => recorder.onEvent(finished)).toThrow("disk full");
    // Rolled back as a whole: no conversation was kept, and the recorder knows it.
    expect(history.listConversations().items).toHaveLength(0);
    expect(recorder.conversationId).toBeUndefined();
    recorder.onEvent(finished);
    const stored = history.getConversation(recorder.conversationId!);
    expect(stored?.messages.map((m) => m.message.content)).toEqual(["hi", "done"]);
    expect(stored?.status).toBe("completed");
  });

  it("stores nothing for a run that never got a message, and starts anew after clear", () => {
    const conversation = createConversation({ maxTokens: 100_000, pruneThreshold: false });
    const recorder = createHistoryRecorder(history, {
      title: (first) => first,
      describe: () => ({ provider: "ollama", model: "m1" }),
      entries: () => conversation.entries(),
    });
    recorder.onEvent({ type: "turn-started", turn: 2 });
    expect(recorder.conversationId).toBeUndefined();
    conversation.append(userMessage("first"));
    recorder.onEvent({
      type: "finished",
      stopReason: "error",
      text: "",
      turns: 1,
      toolCalls: 0,
      usage: usage(1),
      durationMs: 1,
    });
    const firstId = recorder.conversationId;
    expect(history.getConversation(firstId!)?.status).toBe("failed");
    recorder.clear();
    expect(recorder.conversationId).toBeUndefined();
  });
});
