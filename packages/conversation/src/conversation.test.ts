import { describe, expect, it } from "vitest";
import { createConversation } from "./conversation.js";
import { assistantMessage, systemMessage, toolMessage, userMessage } from "./message.js";
import { countMessageTokens, createHeuristicCounter, type TokenCounter } from "./token-counter.js";

const heuristic = createHeuristicCounter();

function spyCounter(): TokenCounter & { texts: string[] } {
  const texts: string[] = [];
  return {
    name: "spy",
    texts,
    count(text) {
      texts.push(text);
      return heuristic.count(text);
    },
  };
}

function summaryTokens(text: string | undefined): number {
  return text === undefined ? 0 : countMessageTokens(systemMessage(text), heuristic);
}

describe("token accounting", () => {
  it("replaces the estimate with the provider-reported usage, then estimates only new messages", () => {
    const counter = spyCounter();
    const conversation = createConversation({ maxTokens: 100_000, tokenizer: counter });
    conversation.append(systemMessage("You are an agent."));
    conversation.append(userMessage("List the files"));
    expect(conversation.status()).toMatchObject({ reported: false, tokens: 9 + 8 });

    conversation.forModel();
    conversation.recordUsage({ inputTokens: 1_234 }); // tool definitions included
    expect(conversation.status()).toMatchObject({ reported: true, tokens: 1_234 });

    counter.texts.length = 0;
    const call = assistantMessage("", [{ id: "c1", name: "list_directory", input: { path: "." } }]);
    conversation.append(call);
    expect(counter.texts).toEqual(["", "c1", "list_directory", '{"path":"."}']);
    const result = toolMessage({
      toolCallId: "c1",
      toolName: "list_directory",
      content: "a.ts\nb.ts",
      isError: false,
    });
    conversation.append(result);
    expect(counter.texts).toHaveLength(6); // nothing earlier was counted again
    expect(conversation.status().tokens).toBe(
      1_234 + countMessageTokens(call, heuristic) + countMessageTokens(result, heuristic),
    );
  });

  it("applies a report to the request of the last forModel(), even after the answer was appended", () => {
    const conversation = createConversation({ maxTokens: 100_000 });
    conversation.append(userMessage("Hello"));
    conversation.forModel();
    const answer = assistantMessage("Hi! How can I help?");
    conversation.append(answer);
    conversation.recordUsage({ inputTokens: 500 });
    expect(conversation.status().tokens).toBe(500 + countMessageTokens(answer, heuristic));
  });

  it("counts reservedTokens until the first report, ignores empty reports and rejects bad ones", () => {
    const conversation = createConversation({ maxTokens: 10_000, reservedTokens: 300 });
    expect(conversation.status().tokens).toBe(300);
    conversation.append(userMessage("abcd"));
    expect(conversation.status().tokens).toBe(300 + 5);
    expect(conversation.recordUsage({ inputTokens: 0 })).toEqual({});
    expect(conversation.status().reported).toBe(false);
    expect(() => conversation.recordUsage({ inputTokens: -1 })).toThrow(/inputTokens/);
    expect(() => conversation.recordUsage({ inputTokens: Number.NaN })).toThrow(/inputTokens/);
  });

  it("lowers a reported total by the estimate of what a prune hid", () => {
    const conversation = createConversation({ maxTokens: 2_000, minRetainTurns: 1 });
    conversation.append(userMessage("first"));
    const old = assistantMessage("o".repeat(2_000));
    conversation.append(old);
    conversation.append(userMessage("second"));
    conversation.forModel();
    conversation.recordUsage({ inputTokens: 1_000 });
    const update = conversation.append(assistantMessage("n".repeat(2_400)));
    expect(update.pruned?.dropped).toEqual([old]);
    expect(update.pruned?.tokensBefore).toBe(1_000 + 604);
    expect(conversation.status().tokens).toBe(
      1_604 - countMessageTokens(old, heuristic) + summaryTokens(conversation.summary()),
    );
  });
});

describe("context status", () => {
  it("reports warning and critical once each when crossed, and the way back down", () => {
    const conversation = createConversation({ maxTokens: 1_000, pruneThreshold: false });
    const changes: string[] = [];
    for (let index = 0; index < 20; index += 1) {
      const { status } = conversation.append(userMessage("x".repeat(184))); // 50 tokens each
      if (status) changes.push(`${status.previous}->${status.level}@${status.status.tokens}`);
    }
    expect(changes).toEqual(["ok->warning@700", "warning->critical@900"]);
    const { status } = conversation.prune();
    expect(status?.level).toBe("ok");
    expect(conversation.append(userMessage("x")).status).toBeUndefined();
  });

  it("reports a crossing caused by a provider report", () => {
    const conversation = createConversation({ maxTokens: 1_000, pruneThreshold: false });
    conversation.append(userMessage("hi"));
    conversation.forModel();
    expect(conversation.recordUsage({ inputTokens: 750 }).status).toMatchObject({
      previous: "ok",
      level: "warning",
    });
    expect(conversation.recordUsage({ inputTokens: 760 }).status).toBeUndefined();
  });
});

describe("options", () => {
  it("applies the defaults", () => {
    expect(createConversation({ maxTokens: 1_000 }).options).toMatchObject({
      maxTokens: 1_000,
      pruneThreshold: 0.8,
      pruneTarget: 0.6,
      minRetainTurns: 5,
      warningThreshold: 0.7,
      criticalThreshold: 0.9,
      reservedTokens: 0,
    });
  });

  it.each([
    [{ maxTokens: 0 }, /maxTokens must be an integer of at least 1 \(got 0\)/],
    [{ maxTokens: 1_000, pruneThreshold: 1.5 }, /pruneThreshold must be a number in \(0, 1\]/],
    [{ maxTokens: 1_000, pruneTarget: 0.9 }, /pruneTarget must be at most pruneThreshold/],
    [{ maxTokens: 1_000, minRetainTurns: 0 }, /minRetainTurns must be an integer of at least 1/],
    [
      { maxTokens: 1_000, warningThreshold: 0.95 },
      /warningThreshold must be at most criticalThreshold/,
    ],
    [{ maxTokens: 1_000, reservedTokens: 1_000 }, /reservedTokens must be below maxTokens/],
  ])("rejects %j", (options, message) => {
    expect(() => createConversation(options)).toThrow(message);
  });
});
