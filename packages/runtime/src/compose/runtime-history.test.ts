import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isXzatomaError } from "@xzatoma/errors";
import { openHistory, type History } from "@xzatoma/persistence";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveRuntimeConfig } from "../resolve-config.js";
import { openHistoryOf, resumedConversation, storedConversation } from "./runtime-history.js";

let home: string;
let history: History | undefined;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xz-runtime-history-"));
});
afterEach(async () => {
  history?.close();
  history = undefined;
  await rm(home, { recursive: true, force: true });
});

function configWith(persistence: Record<string, unknown> = {}) {
  return resolveRuntimeConfig(
    { persistence: { data_dir: path.join(home, "data"), ...persistence } },
    { homeDir: home, env: {} },
  );
}

/** A stored conversation of a question and an answer, the answer kept verbatim. */
function storeConversation(store: History, title: string): string {
  const { id } = store.createConversation({ title, provider: "openai", model: "m" });
  store.appendMessages(id, [
    { message: { role: "system", content: "instructions" } },
    { message: { role: "user", content: `${title}?` }, pinned: true },
    { message: { role: "assistant", content: `${title}!`, toolCalls: [] } },
  ]);
  return id;
}

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return isXzatomaError(error) ? error.code : "not an XzatomaError";
  }
  return undefined;
}

describe("storedConversation", () => {
  it("gives a conversation's messages without the system prompt, its kept ones the same objects", () => {
    history = openHistory({ path: path.join(home, "history.db") });
    const id = storeConversation(history, "first");
    const stored = storedConversation(history, id.slice(0, 12));
    expect(stored.id).toBe(id);
    expect(stored.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect([...stored.pinned]).toEqual([stored.messages[0]]);
  });

  it("finds the newest conversation for { latest: true }", () => {
    history = openHistory({ path: path.join(home, "history.db") });
    storeConversation(history, "older");
    const newer = storeConversation(history, "newer");
    expect(storedConversation(history, { latest: true }).id).toBe(newer);
  });

  it("says CONVERSATION_NOT_FOUND for an unknown id or an empty history, HISTORY_UNAVAILABLE without one", () => {
    history = openHistory({ path: path.join(home, "history.db") });
    const store = history;
    expect(codeOf(() => storedConversation(store, { latest: true }))).toBe(
      "CONVERSATION_NOT_FOUND",
    );
    expect(codeOf(() => storedConversation(store, "01NOSUCHCONVERSATION000000"))).toBe(
      "CONVERSATION_NOT_FOUND",
    );
    expect(codeOf(() => storedConversation(undefined, "any"))).toBe("HISTORY_UNAVAILABLE");
  });
});

describe("openHistoryOf", () => {
  it("opens no history when persistence is off or the caller turns it off", () => {
    expect(openHistoryOf(configWith({ enabled: false }), undefined).store).toBeUndefined();
    expect(openHistoryOf(configWith(), false).store).toBeUndefined();
  });

  it("leaves the caller's open history open when the runtime closes", () => {
    history = openHistory({ path: path.join(home, "shared.db") });
    const runtimeHistory = openHistoryOf(configWith(), { store: history });
    expect(runtimeHistory.store).toBe(history);
    runtimeHistory.close();
    expect(history.listConversations({}).items).toEqual([]);
  });

  it("closes the history it opened when there is no conversation to resume", () => {
    const runtimeHistory = openHistoryOf(configWith(), undefined);
    const store = runtimeHistory.store;
    expect(store).toBeDefined();
    expect(codeOf(() => resumedConversation(runtimeHistory, { resume: "01NOSUCH" }))).toBe(
      "CONVERSATION_NOT_FOUND",
    );
    expect(() => store?.listConversations({})).toThrow();
  });
});
