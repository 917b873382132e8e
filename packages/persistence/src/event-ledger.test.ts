import { describe, expect, it } from "vitest";
import { openTempHistory, tempDbPath } from "./__fixtures__/temp-history.js";
import { openHistory } from "./open-history.js";

describe("processed-event ledger", () => {
  it("records an event once: the first record wins", () => {
    const history = openTempHistory();
    const { id } = history.createConversation({ title: "plan", provider: "p", model: "m" });
    expect(history.isEventProcessed("evt-1")).toBe(false);
    expect(history.markEventProcessed("evt-1", { conversationId: id, outcome: "completed" })).toBe(
      true,
    );
    expect(history.markEventProcessed("evt-1", { outcome: "failed" })).toBe(false);
    expect(history.isEventProcessed("evt-1")).toBe(true);
    expect(history.isEventProcessed("evt-2")).toBe(false);
    expect(history.markEventProcessed("evt-2", { outcome: "skipped" })).toBe(true);
  });

  it("keeps the ledgers of two open histories apart", () => {
    const one = openTempHistory();
    const two = openTempHistory();
    expect(one.markEventProcessed("evt-1", { outcome: "completed", delivery: "t/0/1" })).toBe(true);
    expect(two.isEventProcessed("evt-1")).toBe(false);
    expect(two.lookupProcessedEvent("evt-1")).toBeUndefined();
    expect(two.markEventProcessed("evt-1", { outcome: "failed" })).toBe(true);
    expect(one.lookupProcessedEvent("evt-1")).toMatchObject({
      outcome: "completed",
      delivery: "t/0/1",
    });
    expect(two.lookupProcessedEvent("evt-1")).toEqual({
      eventId: "evt-1",
      outcome: "failed",
      processedAt: expect.any(String),
    });
  });

  it("survives reopening and outlives the conversation it started", () => {
    const file = tempDbPath();
    const first = openHistory({ path: file });
    const { id } = first.createConversation({ title: "plan", provider: "p", model: "m" });
    first.markEventProcessed("evt-1", { conversationId: id, outcome: "completed" });
    first.close();
    const second = openTempHistory({ path: file });
    expect(second.deleteConversation(id)).toBe(true);
    expect(second.isEventProcessed("evt-1")).toBe(true);
  });

  it("keeps where the message sat and the result published for it, byte for byte", () => {
    const history = openTempHistory();
    const result = JSON.stringify([{ topic: "out", records: [{ key: "e1", value: '{"a":1}' }] }]);
    history.markEventProcessed("evt-1", { outcome: "completed", delivery: "in/2/41", result });
    expect(history.lookupProcessedEvent("evt-1")).toMatchObject({
      eventId: "evt-1",
      outcome: "completed",
      delivery: "in/2/41",
      result,
    });
    expect(history.lookupProcessedEvent("evt-2")).toBeUndefined();
  });

  it("forgets an entry, so the event can be recorded again, and finds entries by a LIKE pattern", () => {
    const history = openTempHistory();
    history.markEventProcessed('["ci","a_1"]', { outcome: "completed" });
    history.markEventProcessed('["ci","ab1"]', { outcome: "failed" });
    history.markEventProcessed('["cd","a_1"]', { outcome: "completed" });
    // `_` escaped: only the ids that end in a_1, not ab1.
    expect(history.findProcessedEvents('%,"a\\_1"]').map((entry) => entry.eventId)).toEqual([
      '["cd","a_1"]',
      '["ci","a_1"]',
    ]);
    expect(history.findProcessedEvents("%", 1)).toHaveLength(1);
    expect(history.forgetProcessedEvent('["ci","a_1"]')).toBe(true);
    expect(history.forgetProcessedEvent('["ci","a_1"]')).toBe(false);
    expect(history.lookupProcessedEvent('["ci","a_1"]')).toBeUndefined();
    expect(history.markEventProcessed('["ci","a_1"]', { outcome: "failed" })).toBe(true);
  });
});
