import { and, eq, gte, lt } from "drizzle-orm";
import { AmbiguousConversationIdError } from "./errors.js";
import type { HistoryContext } from "./history-context.js";
import { conversations } from "./schema/index.js";

/** Crockford base32, the alphabet of ULIDs. Anything else cannot prefix an id. */
const ULID_PREFIX = /^[0-9A-HJKMNP-TV-Z]+$/;
const SHOWN_CANDIDATES = 5;

/**
 * The full id of the conversation that `idOrPrefix` names: an exact id, or the start of
 * exactly one id, like git's short hashes (case-insensitive, as ULIDs are). `undefined`
 * when nothing matches; throws {@link AmbiguousConversationIdError} when several do.
 */
export function resolveConversationId(
  context: HistoryContext,
  idOrPrefix: string,
): string | undefined {
  const prefix = idOrPrefix.trim().toUpperCase();
  if (!ULID_PREFIX.test(prefix)) return undefined;
  const exact = context.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(eq(conversations.id, prefix))
    .get();
  if (exact) return exact.id;
  // Ids are upper-case base32, so every id that starts with the prefix sorts between
  // the prefix and the prefix followed by "~" (after "Z"): a range on the primary key.
  const matches = context.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(gte(conversations.id, prefix), lt(conversations.id, `${prefix}~`)))
    .orderBy(conversations.id)
    .limit(SHOWN_CANDIDATES + 1)
    .all()
    .map((row) => row.id);
  if (matches.length > 1) {
    throw new AmbiguousConversationIdError(
      idOrPrefix,
      matches.slice(0, SHOWN_CANDIDATES),
      matches.length > SHOWN_CANDIDATES,
    );
  }
  return matches[0];
}
