/**
 * Thrown by `restoreConversation` when the serialised conversation is malformed; `field`
 * is the path of the bad value, e.g. `entries[3].message.role`.
 */
export class ConversationFormatError extends Error {
  /** The path of the bad value inside the serialised conversation. */
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`Invalid serialized conversation: ${field} ${problem}.`);
    this.name = "ConversationFormatError";
    this.field = field;
  }
}
