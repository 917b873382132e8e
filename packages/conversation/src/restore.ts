import { loadConversation, type Conversation } from "./conversation.js";
import { ConversationFormatError } from "./errors.js";
import type { ConversationOptions } from "./options.js";
import { parseSerializedConversation } from "./serialize.js";

/**
 * Restores a conversation written by `toJSON()` (the object, or its JSON text) with the
 * options in force now: a smaller `maxTokens` prunes at the next change. The stored
 * provider usage is reused only when `options.tokenizer` has the same name as when saved.
 * Throws {@link ConversationFormatError} naming the bad field.
 */
export function restoreConversation(json: unknown, options: ConversationOptions): Conversation {
  let value = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new ConversationFormatError("conversation", `is not valid JSON (${String(error)})`);
    }
  }
  return loadConversation(parseSerializedConversation(value), options);
}
