import { describe, expect, it } from "vitest";
import { createConversation, type Conversation } from "./conversation.js";
import { ConversationFormatError } from "./errors.js";
import { systemMessage, userMessage } from "./message.js";
import { restoreConversation } from "./restore.js";
import { seededRandom, syntheticTurn } from "./test-support.js";

const options = { maxTokens: 6_000, minRetainTurns: 2 };

type Mutable = Record<string, unknown> & { entries: Record<string, unknown>[] };

function busyConversation(): Conversation {
  const conversation = createConversation(options);
  conversation.append(systemMessage("You are an agent."));
  conversation.append(userMessage("Active plan: ship it"), { pinned: true });
  const random = seededRandom(7);
  for (let turn = 1; turn <= 40; turn += 1) {
    for (const message of syntheticTurn(turn, random)) conversation.append(message);
    if (turn === 20) conversation.replaceSummary("Turns so far: files were read and tests run.");
    if (turn % 10 === 0) {
      conversation.forModel();
      conversation.recordUsage({ inputTokens: conversation.status().tokens + 321 });
    }
  }
  return conversation;
}

function corrupt(mutate: (json: Mutable) => void): () => Conversation {
  const json = JSON.parse(JSON.stringify(busyConversation())) as Mutable;
  mutate(json);
  return () => restoreConversation(json, options);
}

const message = (json: Mutable, index: number) =>
  json.entries[index]!.message as Record<string, unknown>;

describe("serialization", () => {
  it("round-trips through JSON and behaves the same afterwards", () => {
    const original = busyConversation();
    const json = JSON.stringify(original);
    const restored = restoreConversation(JSON.parse(json), options);
    expect(restored.entries()).toEqual(original.entries());
    expect(restored.forModel()).toEqual(original.forModel());
    expect(restored.status()).toEqual(original.status());
    expect(restored.summary()).toBe(original.summary());
    expect(JSON.stringify(restored)).toBe(json);

    const random = seededRandom(99);
    for (let turn = 41; turn <= 60; turn += 1) {
      for (const next of syntheticTurn(turn, random))
        expect(restored.append(next)).toEqual(original.append(next));
    }
    expect(restored.forModel()).toEqual(original.forModel());
    expect(restoreConversation(json, options).status().tokens).toBeGreaterThan(0); // JSON text too
  });

  it("drops the stored usage when the tokenizer changed", () => {
    const json = busyConversation().toJSON();
    const restored = restoreConversation(json, {
      ...options,
      tokenizer: { name: "other", count: (text: string) => Math.ceil(text.length / 3) },
    });
    expect(restored.status().reported).toBe(false);
  });

  it.each<[string, (json: Mutable) => void, string]>([
    ["an unknown role", (json) => (message(json, 1).role = "bot"), "entries[1].message.role"],
    ["a missing content", (json) => delete message(json, 0).content, "entries[0].message.content"],
    ["a bad pinned flag", (json) => (json.entries[2]!.pinned = "yes"), "entries[2].pinned"],
    ["a wrong version", (json) => (json.version = 2), "version"],
    ["a bad level", (json) => (json.level = "panic"), "level"],
    [
      "a negative usage",
      (json) => (json.usage = { inputTokens: -5, estimate: 1 }),
      "usage.inputTokens",
    ],
    [
      "a bad summary",
      (json) => ((json.summary as Record<string, unknown>).files = "a.ts"),
      "summary.files",
    ],
  ])("rejects %s, naming the field", (_, mutate, field) => {
    const restore = corrupt(mutate);
    expect(restore).toThrow(ConversationFormatError);
    expect(restore).toThrow(`Invalid serialized conversation: ${field} `);
  });

  it("rejects a tool result shown while its call is pruned", () => {
    const restore = corrupt((json) => {
      const index = json.entries.findIndex(
        (entry) =>
          entry.pruned === true && (entry.message as Record<string, unknown>).role === "tool",
      );
      delete json.entries[index]!.pruned;
    });
    expect(restore).toThrow(
      /entries\[\d+\]\.pruned is false but its tool call at entries\[\d+\] is pruned/,
    );
  });

  it("rejects a pruned system message and text that is not JSON", () => {
    expect(corrupt((json) => (json.entries[0]!.pruned = true))).toThrow(
      /entries\[0\]\.pruned is true for a system/,
    );
    expect(() => restoreConversation("{not json", options)).toThrow(
      /conversation is not valid JSON/,
    );
    expect(() => restoreConversation(null, options)).toThrow(/conversation must be an object/);
  });
});
