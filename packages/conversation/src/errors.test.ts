import { isErrorCode, isXzatomaError, XzatomaError } from "@xzatoma/errors";
import { describe, expect, it } from "vitest";
import { ConversationFormatError } from "./errors.js";
import { restoreConversation } from "./restore.js";

describe("ConversationFormatError", () => {
  it("is an XzatomaError with code CONVERSATION_FORMAT_INVALID and the bad field", () => {
    const error = new ConversationFormatError("entries[3].message.role", "must be a string");
    expect(isXzatomaError(error)).toBe(true);
    expect(error).toBeInstanceOf(XzatomaError);
    expect(isErrorCode(error.code)).toBe(true);
    expect(error.code).toBe("CONVERSATION_FORMAT_INVALID");
    expect(error.name).toBe("ConversationFormatError");
    expect(error.field).toBe("entries[3].message.role");
    expect(error.fields).toEqual({ field: "entries[3].message.role" });
    expect(error.message).toBe(
      "Invalid serialized conversation: entries[3].message.role must be a string.",
    );
  });

  it("is what restoreConversation throws for text that is not JSON", () => {
    let caught: unknown;
    try {
      restoreConversation("{not json", { maxTokens: 1000 });
    } catch (error) {
      caught = error;
    }
    expect(isXzatomaError(caught) && caught.code).toBe("CONVERSATION_FORMAT_INVALID");
  });
});
