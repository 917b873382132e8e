import type { Message } from "@xzatoma/conversation";

/**
 * The stored messages that were kept verbatim by request (a prompt naming a skill), as the
 * same objects `storedMessages` returns, for a resumed agent's `pinnedHistory`.
 */
export function pinnedOf(
  stored: readonly { readonly message: unknown; readonly pinned?: boolean }[],
): ReadonlySet<Message> {
  return new Set(
    stored
      .filter((entry) => entry.pinned === true)
      .map((entry) => entry.message as Message)
      .filter((message) => message.role !== "system"),
  );
}
