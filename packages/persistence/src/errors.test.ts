import { isErrorCode, isXzatomaError, XzatomaError } from "@xzatoma/errors";
import { describe, expect, it } from "vitest";
import { AmbiguousConversationIdError, ConversationNotFoundError, HistoryError } from "./errors.js";

describe("the history store's errors", () => {
  it.each([
    ["HistoryError", new HistoryError("HISTORY_MIGRATION_FAILED", "could not migrate")],
    ["ConversationNotFoundError", new ConversationNotFoundError("01HX")],
    ["AmbiguousConversationIdError", new AmbiguousConversationIdError("01", ["01A", "01B"], true)],
  ])("%s is an XzatomaError with a code of the closed set", (name, error) => {
    expect(isXzatomaError(error)).toBe(true);
    expect(error).toBeInstanceOf(XzatomaError);
    expect(error).toBeInstanceOf(HistoryError);
    expect(isErrorCode(error.code)).toBe(true);
    expect(error.name).toBe(name);
  });

  it("keeps their public fields and repeats the facts in fields", () => {
    const missing = new ConversationNotFoundError("01HX");
    expect(missing.code).toBe("CONVERSATION_NOT_FOUND");
    expect(missing.conversationId).toBe("01HX");
    expect(missing.fields).toEqual({ conversationId: "01HX" });

    const ambiguous = new AmbiguousConversationIdError("01", ["01A", "01B"], true);
    expect(ambiguous.code).toBe("AMBIGUOUS_CONVERSATION_ID");
    expect(ambiguous).toMatchObject({ prefix: "01", candidates: ["01A", "01B"] });
    expect(ambiguous.fields).toEqual({ prefix: "01", candidates: ["01A", "01B"] });
    expect(ambiguous.message).toContain("(01A, 01B, ...)");

    const cause = new Error("disk full");
    const failed = new HistoryError("HISTORY_MIGRATION_FAILED", "m", {
      cause,
      fields: { database: "/h.db" },
    });
    expect(failed.cause).toBe(cause);
    expect(failed.fields).toEqual({ database: "/h.db" });
  });
});
