import type { ConversationRecord, History } from "@xzatoma/persistence";
import { conversationPlace } from "./conversation-place.js";

/** Conversations read to find this project's (newest first); older ones are not offered. */
const SCANNED = 500;

/** A conversation offered for resuming, with what it changed. */
export interface ProjectConversation {
  readonly record: ConversationRecord;
  readonly filesChanged: readonly string[];
}

/**
 * The newest top-level conversations (not subagents') that last worked in `workspace` (a
 * real path), newest first, at most `limit`.
 */
export function projectConversations(
  history: History,
  dataDir: string,
  workspace: string,
  limit = 10,
): ProjectConversation[] {
  const found: ProjectConversation[] = [];
  const page = history.listConversations({ parentId: null, limit: SCANNED, offset: 0 });
  for (const record of page.items) {
    const place = conversationPlace(dataDir, record.id);
    if (place.workspace !== workspace) continue;
    found.push({ record, filesChanged: place.filesChanged });
    if (found.length >= limit) break;
  }
  return found;
}
