/**
 * Errors of the history store. They carry the `Symbol.for("xzatoma.error")` marker and
 * a stable `code`, so `isXzatomaError` of `@xzatoma/core` recognises them without this
 * package importing core.
 */
const XZATOMA_ERROR = Symbol.for("xzatoma.error");

/** The base of the history store's errors: a message for people, a `code` for programs. */
export class HistoryError extends Error {
  readonly [XZATOMA_ERROR] = true;
  override readonly name: string = "HistoryError";
  /** Stable: `CONVERSATION_NOT_FOUND`, `AMBIGUOUS_CONVERSATION_ID`, `HISTORY_MIGRATION_FAILED`, ... */
  readonly code: string;

  constructor(code: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/** No conversation has the given id. Code `CONVERSATION_NOT_FOUND`. */
export class ConversationNotFoundError extends HistoryError {
  override readonly name = "ConversationNotFoundError";
  readonly conversationId: string;

  constructor(conversationId: string) {
    super("CONVERSATION_NOT_FOUND", `No conversation with id '${conversationId}'.`);
    this.conversationId = conversationId;
  }
}

/**
 * An id prefix matches more than one conversation. Code `AMBIGUOUS_CONVERSATION_ID`;
 * `candidates` lists the first few matching ids.
 */
export class AmbiguousConversationIdError extends HistoryError {
  override readonly name = "AmbiguousConversationIdError";
  readonly prefix: string;
  readonly candidates: readonly string[];

  constructor(prefix: string, candidates: readonly string[], more = false) {
    super(
      "AMBIGUOUS_CONVERSATION_ID",
      `The id prefix '${prefix}' matches more than one conversation ` +
        `(${candidates.join(", ")}${more ? ", ..." : ""}); type more characters of the id.`,
    );
    this.prefix = prefix;
    this.candidates = candidates;
  }
}
