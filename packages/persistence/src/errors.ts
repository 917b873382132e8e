import { XzatomaError, type ErrorCode, type XzatomaErrorOptions } from "@xzatoma/errors";

/** The codes of the history store's errors. */
export type HistoryErrorCode = Extract<
  ErrorCode,
  | "CONVERSATION_NOT_FOUND"
  | "AMBIGUOUS_CONVERSATION_ID"
  | "HISTORY_OPEN_FAILED"
  | "HISTORY_MIGRATIONS_MISSING"
  | "HISTORY_MIGRATION_FAILED"
  | "HISTORY_SQLITE_UNAVAILABLE"
>;

/**
 * The base of the history store's errors: an {@link XzatomaError} with one of the store's
 * {@link HistoryErrorCode}s, so `isXzatomaError` of `@xzatoma/errors` recognises them.
 */
export class HistoryError<
  F extends object = Readonly<Record<string, unknown>>,
> extends XzatomaError<F> {
  override readonly name: string = "HistoryError";
  /** `CONVERSATION_NOT_FOUND`, `AMBIGUOUS_CONVERSATION_ID`, `HISTORY_MIGRATION_FAILED`, ... */
  declare readonly code: HistoryErrorCode;

  constructor(code: HistoryErrorCode, message: string, options: XzatomaErrorOptions<F> = {}) {
    super(code, message, options);
  }
}

/** No conversation has the given id. Code `CONVERSATION_NOT_FOUND`. */
export class ConversationNotFoundError extends HistoryError<{ readonly conversationId: string }> {
  override readonly name = "ConversationNotFoundError";
  readonly conversationId: string;

  constructor(conversationId: string) {
    super("CONVERSATION_NOT_FOUND", `No conversation with id '${conversationId}'.`, {
      fields: { conversationId },
    });
    this.conversationId = conversationId;
  }
}

/**
 * An id prefix matches more than one conversation. Code `AMBIGUOUS_CONVERSATION_ID`;
 * `candidates` lists the first few matching ids.
 */
export class AmbiguousConversationIdError extends HistoryError<{
  readonly prefix: string;
  readonly candidates: readonly string[];
}> {
  override readonly name = "AmbiguousConversationIdError";
  readonly prefix: string;
  readonly candidates: readonly string[];

  constructor(prefix: string, candidates: readonly string[], more = false) {
    super(
      "AMBIGUOUS_CONVERSATION_ID",
      `The id prefix '${prefix}' matches more than one conversation ` +
        `(${candidates.join(", ")}${more ? ", ..." : ""}); type more characters of the id.`,
      { fields: { prefix, candidates } },
    );
    this.prefix = prefix;
    this.candidates = candidates;
  }
}
