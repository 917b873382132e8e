import { describe, expect, it } from "vitest";
import { openRaw, pluckAll } from "./__fixtures__/raw-db.js";
import { openTempHistory, SOME_USAGE, tempDbPath } from "./__fixtures__/temp-history.js";
import type { HistoryMessage } from "./model.js";
import { openHistory } from "./open-history.js";

const user = (content: string): HistoryMessage => ({ role: "user", content });

describe("messages", () => {
  it("numbers appended messages after the last one and returns the numbers", () => {
    const history = openTempHistory();
    const { id } = history.createConversation({ title: "t", provider: "p", model: "m" });
    expect(history.appendMessages(id, [{ message: user("a") }, { message: user("b") }])).toEqual([
      0, 1,
    ]);
    expect(history.appendMessages(id, [])).toEqual([]);
    expect(history.appendMessages(id, [{ message: user("c") }])).toEqual([2]);
  });

  it("keeps pruned flags as written and as marked later, and returns pruned messages", () => {
    const history = openTempHistory();
    const { id } = history.createConversation({ title: "t", provider: "p", model: "m" });
    history.appendMessages(id, [
      { message: user("old"), pruned: true },
      { message: user("older") },
      { message: user("recent") },
      { message: user("latest") },
    ]);
    history.markPruned(id, [1, 2, 99]);
    const messages = history.getConversation(id)?.messages ?? [];
    expect(messages.map((m) => [m.message.content, m.pruned])).toEqual([
      ["old", true],
      ["older", true],
      ["recent", true],
      ["latest", false],
    ]);
    expect(history.getConversationTree(id)?.messages.map((m) => m.pruned)).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it("writes the turn's usage and turn count with its messages", () => {
    const history = openTempHistory();
    const { id } = history.createConversation({ title: "t", provider: "p", model: "m" });
    history.appendMessages(id, [{ message: user("a") }], { usage: SOME_USAGE, turns: 1 });
    expect(history.getConversation(id)).toMatchObject({ usage: SOME_USAGE, turns: 1 });
  });

  it("sets only the totals a turn carries, resumes a finished conversation, and keeps histories apart", () => {
    const history = openTempHistory();
    const other = openTempHistory();
    const { id } = history.createConversation({ title: "t", provider: "p", model: "m" });
    const { id: otherId } = other.createConversation({ title: "o", provider: "p", model: "m" });
    history.appendMessages(id, [{ message: user("a") }], { usage: SOME_USAGE, turns: 1 });
    history.appendMessages(id, [{ message: user("b") }], { turns: 2 });
    expect(history.getConversation(id)).toMatchObject({ usage: SOME_USAGE, turns: 2 });
    const more = { inputTokens: 100, outputTokens: 50, totalTokens: 150 };
    history.appendMessages(id, [{ message: user("c") }], { usage: more });
    expect(history.getConversation(id)).toMatchObject({ usage: more, turns: 2 });
    history.finishConversation(id, {
      status: "failed",
      stopReason: "error",
      usage: more,
      turns: 2,
    });
    expect(other.appendMessages(otherId, [{ message: user("x") }])).toEqual([0]);
    expect(history.appendMessages(id, [{ message: user("d") }])).toEqual([3]);
    expect(history.getConversation(id)).toMatchObject({
      status: "running",
      stopReason: undefined,
      completedAt: undefined,
      usage: more,
      turns: 2,
    });
    expect(other.getConversation(otherId)?.messages.map((m) => m.message.content)).toEqual(["x"]);
    expect(() => history.appendMessages("01NOSUCHCONVERSATION", [{ message: user("e") }])).toThrow(
      /01NOSUCHCONVERSATION/,
    );
  });

  it("stores all of a turn or none of it", () => {
    const history = openTempHistory();
    const { id } = history.createConversation({ title: "t", provider: "p", model: "m" });
    history.appendMessages(id, [{ message: user("turn 1") }], { turns: 1 });
    // A message that cannot be serialised fails the insert after the first rows of the
    // transaction (the progress update) were written.
    const circular: Record<string, unknown> = {};
    circular["self"] = circular;
    const broken = { role: "user", content: "x", extra: circular } as unknown as HistoryMessage;
    expect(() =>
      history.appendMessages(id, [{ message: user("turn 2") }, { message: broken }], { turns: 2 }),
    ).toThrow();
    const stored = history.getConversation(id);
    expect(stored?.messages.map((m) => m.message.content)).toEqual(["turn 1"]);
    expect(stored?.turns).toBe(1);
  });

  it("makes each committed turn visible to a fresh connection while the writer stays open", () => {
    const file = tempDbPath();
    const writer = openTempHistory({ path: file });
    const { id } = writer.createConversation({ title: "t", provider: "p", model: "m" });
    writer.appendMessages(id, [{ message: user("turn 1") }]);

    // A turn in flight (an open transaction of another writer) is not visible, and is
    // lost when that writer dies; the committed turn is not.
    const inFlight = openRaw(file, { readOnly: false });
    inFlight.exec("BEGIN IMMEDIATE");
    inFlight
      .prepare(
        "INSERT INTO messages (conversation_id, sequence, role, message, created_at) VALUES (?, 1, 'user', ?, '2026-11-22T03:00:00Z')",
      )
      .run(id, JSON.stringify(user("turn 2")));

    const reader = openHistory({ path: file, busyTimeoutMs: 100 });
    expect(reader.getConversation(id)?.messages.map((m) => m.message.content)).toEqual(["turn 1"]);
    inFlight.close(); // dies without committing
    writer.appendMessages(id, [{ message: user("turn 2, again") }]);
    expect(reader.getConversation(id)?.messages.map((m) => m.message.content)).toEqual([
      "turn 1",
      "turn 2, again",
    ]);
    reader.close();
  });

  it("applies the redact hook to every text before writing it", () => {
    const file = tempDbPath();
    const redact = (text: string) => text.replaceAll(/sk-[a-z0-9]+/g, "[REDACTED]");
    const history = openTempHistory({ path: file, redact });
    const { id } = history.createConversation({
      title: "use sk-title1",
      label: "sk-label1",
      provider: "p",
      model: "m",
    });
    history.appendMessages(id, [
      { message: { role: "system", content: "key sk-system1" } },
      { message: user("my key is sk-user1") },
      {
        message: {
          role: "assistant",
          content: "calling with sk-assistant1",
          toolCalls: [
            {
              id: "c1",
              name: "terminal",
              input: {
                command: "curl -H 'Authorization: sk-input1'",
                args: ["sk-input2", 3, null],
              },
            },
          ],
        },
      },
      {
        message: {
          role: "tool",
          toolCallId: "c1",
          toolName: "terminal",
          content: "echoed sk-tool1",
          isError: false,
        },
      },
    ]);

    const db = openRaw(file);
    const raw = [
      ...pluckAll(db, "SELECT message FROM messages"),
      ...pluckAll(db, "SELECT title || ' ' || label FROM conversations"),
    ].join("\n");
    db.close();
    expect(raw).not.toMatch(/sk-[a-z]+1|sk-input2/);
    expect(raw.match(/\[REDACTED\]/g)).toHaveLength(8);

    const stored = history.getConversation(id)?.messages[2]?.message;
    expect(stored).toEqual({
      role: "assistant",
      content: "calling with [REDACTED]",
      toolCalls: [
        {
          id: "c1",
          name: "terminal",
          input: { command: "curl -H 'Authorization: [REDACTED]'", args: ["[REDACTED]", 3, null] },
        },
      ],
    });
  });

  it("redacts with redactSecrets of @xzatoma/redaction when no hook is given", () => {
    const history = openTempHistory();
    const { id } = history.createConversation({
      title: "deploy with API_KEY=abc123",
      provider: "p",
      model: "m",
    });
    history.appendMessages(id, [{ message: user('{"password": "correct horse"}') }]);
    expect(history.getConversation(id)?.messages[0]?.message.content).toBe(
      '{"password": "[REDACTED]"}',
    );
    expect(history.getConversation(id)?.title).toBe("deploy with API_KEY=[REDACTED]");
  });

  it("stores text as given when the caller passes the identity", () => {
    const history = openTempHistory({ redact: (text) => text });
    const { id } = history.createConversation({
      title: "API_KEY=abc123",
      provider: "p",
      model: "m",
    });
    history.appendMessages(id, [{ message: user("API_KEY=abc123") }]);
    expect(history.getConversation(id)?.messages[0]?.message.content).toBe("API_KEY=abc123");
    expect(history.getConversation(id)?.title).toBe("API_KEY=abc123");
  });
});
