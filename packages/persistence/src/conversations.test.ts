import { describe, expect, it } from "vitest";
import { openRaw, pluck } from "./__fixtures__/raw-db.js";
import {
  openTempHistory,
  SOME_USAGE,
  steppingClock,
  tempDbPath,
} from "./__fixtures__/temp-history.js";
import { AmbiguousConversationIdError, ConversationNotFoundError } from "./errors.js";
import type { History } from "./history.js";

const RFC3339_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function start(history: History, title = "Fix the build", parentId?: string, label?: string) {
  return history.createConversation({
    title,
    provider: "ollama",
    model: "qwen3",
    ...(parentId !== undefined && { parentId }),
    ...(label !== undefined && { label }),
  });
}

describe("conversations", () => {
  it("creates, appends, finishes, gets and deletes a conversation", () => {
    const history = openTempHistory({ now: steppingClock("2026-11-22T03:00:00.250Z") });
    const created = start(history);
    expect(created).toMatchObject({
      title: "Fix the build",
      provider: "ollama",
      model: "qwen3",
      status: "running",
      depth: 0,
      parentId: undefined,
      startedAt: "2026-11-22T03:00:00Z",
      completedAt: undefined,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      turns: 0,
    });
    expect(created.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);

    history.appendMessages(created.id, [
      { message: { role: "system", content: "You are XZatoma." }, pinned: true },
      { message: { role: "user", content: "Fix the build" } },
    ]);
    history.appendMessages(created.id, [
      {
        message: {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: "read_file", input: { path: "package.json" } }],
        },
      },
      {
        message: {
          role: "tool",
          toolCallId: "c1",
          toolName: "read_file",
          content: "{}",
          isError: false,
        },
      },
    ]);
    history.finishConversation(created.id, {
      status: "completed",
      stopReason: "completed",
      usage: SOME_USAGE,
      turns: 2,
      completedAt: new Date("2026-11-22T03:05:07.999Z"),
    });

    const stored = history.getConversation(created.id);
    expect(stored).toMatchObject({
      status: "completed",
      stopReason: "completed",
      usage: SOME_USAGE,
      turns: 2,
      completedAt: "2026-11-22T03:05:07Z",
    });
    expect(stored?.messages.map((message) => [message.sequence, message.role])).toEqual([
      [0, "system"],
      [1, "user"],
      [2, "assistant"],
      [3, "tool"],
    ]);
    expect(stored?.messages[0]?.pinned).toBe(true);
    expect(stored?.messages[2]?.message).toEqual({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "read_file", input: { path: "package.json" } }],
    });
    expect(stored?.messages.every((message) => RFC3339_SECONDS.test(message.createdAt))).toBe(true);

    expect(history.deleteConversation(created.id)).toBe(true);
    expect(history.getConversation(created.id)).toBeUndefined();
    expect(history.deleteConversation(created.id)).toBe(false);
  });

  it("stores times as RFC 3339 in UTC, whatever the offset of the Date given", () => {
    const history = openTempHistory();
    const created = history.createConversation({
      title: "t",
      provider: "p",
      model: "m",
      startedAt: new Date("2026-11-22T05:00:00+02:00"),
    });
    expect(created.startedAt).toBe("2026-11-22T03:00:00Z");
    history.finishConversation(created.id, { status: "failed", usage: SOME_USAGE, turns: 1 });
    expect(history.getConversation(created.id)?.completedAt).toMatch(RFC3339_SECONDS);
  });

  it("resumes a finished conversation when messages are appended", () => {
    const history = openTempHistory();
    const created = start(history);
    history.finishConversation(created.id, {
      status: "interrupted",
      stopReason: "aborted",
      usage: SOME_USAGE,
      turns: 1,
    });
    history.appendMessages(created.id, [{ message: { role: "user", content: "go on" } }]);
    expect(history.getConversation(created.id)).toMatchObject({
      status: "running",
      stopReason: undefined,
      completedAt: undefined,
    });
  });

  it("refuses unknown conversations with a clear error", () => {
    const history = openTempHistory();
    const unknown = "01JZZZZZZZZZZZZZZZZZZZZZZZ";
    expect(() =>
      history.finishConversation(unknown, { status: "completed", usage: SOME_USAGE, turns: 0 }),
    ).toThrow(ConversationNotFoundError);
    expect(() => history.appendMessages(unknown, [])).toThrow(
      `No conversation with id '${unknown}'`,
    );
    expect(() => start(history, "child", unknown)).toThrow(ConversationNotFoundError);
    expect(history.getConversation(unknown)).toBeUndefined();
  });

  it("finds a conversation by a unique id prefix, in either case, like git", () => {
    const history = openTempHistory();
    const created = start(history);
    const prefix = created.id.slice(0, 12);
    expect(history.getConversation(prefix)?.id).toBe(created.id);
    expect(history.getConversation(prefix.toLowerCase())?.id).toBe(created.id);
    expect(history.getConversation(` ${created.id} `)?.id).toBe(created.id);
    expect(history.getConversation("not-a-ulid%")).toBeUndefined();
    expect(history.getConversation("")).toBeUndefined();
  });

  it("rejects an ambiguous prefix, naming the candidates", () => {
    // Ids made at the same instant share their time part, the first 10 characters.
    const history = openTempHistory({ now: () => new Date("2026-11-22T03:00:00Z") });
    const first = start(history, "a");
    const second = start(history, "b");
    const shared = first.id.slice(0, 10);
    expect(second.id.startsWith(shared)).toBe(true);
    let thrown: unknown;
    try {
      history.getConversation(shared);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AmbiguousConversationIdError);
    expect(thrown).toMatchObject({ code: "AMBIGUOUS_CONVERSATION_ID" });
    expect(String((thrown as Error).message)).toContain(first.id);
    expect(String((thrown as Error).message)).toContain(second.id);
    expect(String((thrown as Error).message)).toContain("type more characters");
    expect(() => history.deleteConversation(shared)).toThrow(AmbiguousConversationIdError);
    expect(history.listConversations().total).toBe(2);
  });

  it("returns the tree of subagent conversations two levels deep, and deletes it whole", () => {
    const file = tempDbPath();
    const history = openTempHistory({ path: file, now: steppingClock("2026-11-22T03:00:00Z") });
    const root = start(history, "root");
    const research = start(history, "research", root.id, "research");
    const review = start(history, "review", root.id, "review");
    const nested = start(history, "nested", research.id, "deep-dive");
    history.appendMessages(nested.id, [{ message: { role: "user", content: "dig" } }]);
    const unrelated = start(history, "unrelated");

    expect([research.depth, nested.depth]).toEqual([1, 2]);
    const tree = history.getConversationTree(root.id.slice(0, 20));
    expect(tree?.id).toBe(root.id);
    expect(tree?.children.map((child) => child.label)).toEqual(["research", "review"]);
    expect(tree?.children[0]?.children.map((child) => [child.label, child.depth])).toEqual([
      ["deep-dive", 2],
    ]);
    expect(tree?.children[0]?.children[0]?.messages[0]?.message.content).toBe("dig");
    expect(tree?.children[1]?.children).toEqual([]);
    expect(history.getConversationTree(research.id)?.children.map((c) => c.id)).toEqual([
      nested.id,
    ]);

    expect(history.deleteConversation(root.id)).toBe(true);
    for (const id of [root.id, research.id, review.id, nested.id]) {
      expect(history.getConversation(id)).toBeUndefined();
    }
    expect(history.getConversation(unrelated.id)).toBeDefined();
    // The cascade is the schema's (foreign keys are on): no orphan message rows remain.
    const db = openRaw(file);
    expect(pluck(db, "SELECT count(*) FROM messages")).toBe(0);
    db.close();
  });
});
