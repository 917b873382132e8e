import type { ConversationEntry } from "@xzatoma/conversation";
import type { AgentResult, Usage } from "@xzatoma/core";
import { statusForStopReason, type History } from "@xzatoma/persistence";
import type { ChatState } from "../chat/chat-engine.js";

/** Writes a session's conversation to the history database as it goes. */
export interface TurnRecorder {
  /**
   * Writes the entries not written yet (one transaction), and marks entries pruned since.
   * Called at every turn boundary, so a crash loses at most the turn in flight.
   */
  progress(
    entries: readonly ConversationEntry[],
    usage: Usage,
    turns: number,
    state: ChatState,
  ): void;
  /** Records how the run ended. */
  finish(entries: readonly ConversationEntry[], result: AgentResult, state: ChatState): void;
  /** Starts a new conversation (`/clear`). */
  clear(): void;
  readonly conversationId: string | undefined;
}

/** The entries that are history: no system prompt, no summary records. */
function historyEntries(entries: readonly ConversationEntry[]): ConversationEntry[] {
  return entries.filter((entry) => !entry.summary && entry.message.role !== "system");
}

/**
 * A recorder over the history database. The conversation row is created with the first
 * write; messages are appended in order, each batch in one transaction with the usage
 * and turn totals so far.
 */
export function createHistoryRecorder(
  history: History,
  options: { title: (firstMessage: string) => string; resumeId?: string },
): TurnRecorder {
  let conversationId: string | undefined;
  let base = { usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, turns: 0 };
  /** Sequence numbers of what this session wrote, by entry index, and whether pruned. */
  let written: { sequence: number; pruned: boolean }[] = [];
  let skip = 0;
  if (options.resumeId) {
    const existing = history.getConversation(options.resumeId);
    if (existing) {
      conversationId = existing.id;
      base = { usage: { ...existing.usage }, turns: existing.turns };
      // The resumed messages are already stored: the session starts with them.
      skip = existing.messages.filter((stored) => stored.message.role !== "system").length;
    }
  }
  const totals = (usage: Usage, turns: number) => ({
    usage: {
      inputTokens: base.usage.inputTokens + usage.inputTokens,
      outputTokens: base.usage.outputTokens + usage.outputTokens,
      totalTokens: base.usage.totalTokens + usage.totalTokens,
    },
    turns: base.turns + turns,
  });

  function write(
    entries: readonly ConversationEntry[],
    usage: Usage,
    turns: number,
    state: ChatState,
  ): void {
    const all = historyEntries(entries).slice(skip);
    const fresh = all.slice(written.length);
    if (
      fresh.length === 0 &&
      written.every((entry, index) => entry.pruned === (all[index]?.pruned ?? false))
    )
      return;
    if (!conversationId) {
      const first =
        all.find((entry) => entry.message.role === "user")?.message.content ?? "conversation";
      conversationId = history.createConversation({
        title: options.title(first),
        provider: state.provider,
        model: state.model,
      }).id;
    }
    const newlyPruned = written
      .map((entry, index) => ({ entry, now: all[index]?.pruned ?? false }))
      .filter(({ entry, now }) => now && !entry.pruned);
    if (newlyPruned.length > 0) {
      history.markPruned(
        conversationId,
        newlyPruned.map(({ entry }) => entry.sequence),
      );
      for (const { entry } of newlyPruned) entry.pruned = true;
    }
    if (fresh.length > 0) {
      const sequences = history.appendMessages(
        conversationId,
        fresh.map((entry) => ({
          message: entry.message,
          pruned: entry.pruned,
          pinned: entry.pinned,
        })),
        totals(usage, turns),
      );
      sequences.forEach((sequence, index) =>
        written.push({ sequence, pruned: fresh[index]?.pruned ?? false }),
      );
    }
  }

  return {
    get conversationId() {
      return conversationId;
    },
    progress: write,
    finish(entries, result, state) {
      write(entries, result.usage, result.turns, state);
      if (!conversationId) return;
      const outcome = totals(result.usage, result.turns);
      history.finishConversation(conversationId, {
        status: statusForStopReason(result.stopReason),
        stopReason: result.stopReason,
        usage: outcome.usage,
        turns: outcome.turns,
      });
      // The next run of this session continues the same conversation.
      base = outcome;
      skip += written.length;
      written = [];
    },
    clear() {
      conversationId = undefined;
      base = { usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, turns: 0 };
      written = [];
      skip = 0;
    },
  };
}

/** A title from the first message: its first line, at most 80 characters. */
export function titleFrom(text: string): string {
  const line = (text.split("\n")[0] ?? "").trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line || "conversation";
}
