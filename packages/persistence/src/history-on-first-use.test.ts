import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempDbPath } from "./__fixtures__/temp-history.js";
import { openHistoryOnFirstUse } from "./history-on-first-use.js";
import { openHistory } from "./open-history.js";

describe("openHistoryOnFirstUse", () => {
  it("creates nothing until the first call, which opens, migrates and stores", () => {
    const file = path.join(path.dirname(tempDbPath()), "later", "history.db");
    const history = openHistoryOnFirstUse({ path: file });
    expect(history.path).toBe(path.resolve(file));
    expect(existsSync(path.dirname(file))).toBe(false);

    const conversation = history.createConversation({
      title: "first",
      provider: "ollama",
      model: "m",
    });
    expect(existsSync(file)).toBe(true);
    history.close();

    const reopened = openHistory({ path: file });
    expect(reopened.getConversation(conversation.id)?.title).toBe("first");
    reopened.close();
  });

  it("redacts what it stores, as the history it opens does", () => {
    const redact = vi.fn((text: string) => text.replaceAll("hunter2", "[REDACTED]"));
    const history = openHistoryOnFirstUse({ path: tempDbPath(), redact });
    const { id } = history.createConversation({
      title: "password hunter2",
      provider: "ollama",
      model: "m",
    });
    expect(history.getConversation(id)?.title).toBe("password [REDACTED]");
    history.close();
  });

  it("throws the opening error at the first call and at every later one", () => {
    const blocker = tempDbPath();
    writeFileSync(blocker, "a file where a directory is needed");
    const history = openHistoryOnFirstUse({ path: path.join(blocker, "history.db") });
    const named = expect.objectContaining({
      code: "HISTORY_OPEN_FAILED",
      message: expect.stringContaining(path.join(blocker, "history.db")),
    });
    expect(() => history.listConversations()).toThrow(named);
    expect(() => history.createConversation({ title: "t", provider: "p", model: "m" })).toThrow(
      named,
    );
    expect(() => history.close()).not.toThrow();
  });

  it("opens nothing when closed unused, and refuses calls after close", () => {
    const file = path.join(path.dirname(tempDbPath()), "never", "history.db");
    const history = openHistoryOnFirstUse({ path: file });
    history.close();
    expect(existsSync(path.dirname(file))).toBe(false);
    expect(() => history.listConversations()).toThrow(/closed/);
    expect(existsSync(path.dirname(file))).toBe(false);
  });
});
