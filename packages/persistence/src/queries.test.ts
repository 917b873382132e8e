import { describe, expect, it } from "vitest";
import { openTempHistory, SOME_USAGE } from "./__fixtures__/temp-history.js";
import type { History } from "./history.js";
import type { ConversationStatus } from "./model.js";

/** Five conversations started an hour apart from 2026-11-22T00:00:00Z. */
function seed(history: History): string[] {
  const statuses: ConversationStatus[] = ["completed", "failed", "running", "completed", "stopped"];
  return statuses.map((status, hour) => {
    const { id } = history.createConversation({
      title: `conversation ${hour}`,
      provider: "p",
      model: "m",
      startedAt: new Date(Date.UTC(2026, 10, 22, hour)),
    });
    if (status !== "running") {
      history.finishConversation(id, { status, usage: SOME_USAGE, turns: 1 });
    }
    return id;
  });
}

const titles = (page: { items: readonly { title: string }[] }) => page.items.map((i) => i.title);

describe("listConversations", () => {
  it("pages newest first with the total count", () => {
    const history = openTempHistory();
    seed(history);
    const first = history.listConversations({ limit: 2 });
    expect(first.total).toBe(5);
    expect(titles(first)).toEqual(["conversation 4", "conversation 3"]);
    expect(titles(history.listConversations({ limit: 2, offset: 2 }))).toEqual([
      "conversation 2",
      "conversation 1",
    ]);
    const last = history.listConversations({ limit: 2, offset: 4 });
    expect(titles(last)).toEqual(["conversation 0"]);
    expect(last.total).toBe(5);
    expect(history.listConversations({ offset: 10 })).toEqual({ items: [], total: 5 });
  });

  it("orders conversations started in the same second by creation", () => {
    const history = openTempHistory({ now: () => new Date("2026-11-22T03:00:00Z") });
    const ids = [1, 2, 3].map(
      (n) => history.createConversation({ title: `${n}`, provider: "p", model: "m" }).id,
    );
    expect(history.listConversations().items.map((item) => item.id)).toEqual(ids.reverse());
  });

  it("filters by start time: since inclusive, until exclusive", () => {
    const history = openTempHistory();
    seed(history);
    const page = history.listConversations({
      since: new Date("2026-11-22T01:00:00Z"),
      until: new Date("2026-11-22T03:00:00Z"),
    });
    expect(titles(page)).toEqual(["conversation 2", "conversation 1"]);
    expect(page.total).toBe(2);
    expect(history.listConversations({ since: new Date("2026-11-23T00:00:00Z") })).toEqual({
      items: [],
      total: 0,
    });
  });

  it("filters by status, and combines filters with paging", () => {
    const history = openTempHistory();
    seed(history);
    expect(titles(history.listConversations({ status: ["completed"] }))).toEqual([
      "conversation 3",
      "conversation 0",
    ]);
    const page = history.listConversations({
      status: ["completed", "failed", "running"],
      since: new Date("2026-11-22T01:00:00Z"),
      limit: 1,
      offset: 1,
    });
    expect(titles(page)).toEqual(["conversation 2"]);
    expect(page.total).toBe(3);
    expect(page.items[0]?.status).toBe("running");
  });

  it("lists top-level conversations or the subagents of one", () => {
    const history = openTempHistory();
    const root = history.createConversation({ title: "root", provider: "p", model: "m" });
    history.createConversation({ title: "child", provider: "p", model: "m", parentId: root.id });
    expect(titles(history.listConversations({ parentId: null }))).toEqual(["root"]);
    expect(titles(history.listConversations({ parentId: root.id }))).toEqual(["child"]);
    expect(history.listConversations().total).toBe(2);
  });

  it("rejects a negative or fractional page", () => {
    const history = openTempHistory();
    expect(() => history.listConversations({ limit: -1 })).toThrow(RangeError);
    expect(() => history.listConversations({ offset: 1.5 })).toThrow(RangeError);
  });
});
