import { XzatomaError } from "@xzatoma/errors";

/**
 * Thrown by `restoreConversation` when the serialised conversation is malformed (code
 * `CONVERSATION_FORMAT_INVALID`); `field` (also in `fields.field`) is the path of the bad
 * value, e.g. `entries[3].message.role`.
 */
export class ConversationFormatError extends XzatomaError<{ readonly field: string }> {
  declare readonly code: "CONVERSATION_FORMAT_INVALID";
  override readonly name = "ConversationFormatError";
  /** The path of the bad value inside the serialised conversation. */
  readonly field: string;

  constructor(field: string, problem: string) {
    super("CONVERSATION_FORMAT_INVALID", `Invalid serialized conversation: ${field} ${problem}.`, {
      fields: { field },
    });
    this.field = field;
  }
}
