import type { ConversationEntry } from "@xzatoma/conversation";
import type { AgentEvent, Usage } from "@xzatoma/core";
import type { History } from "./history.js";
import { statusForStopReason } from "./status.js";

/** Options of {@link createHistoryRecorder}. */
export interface HistoryRecorderOptions {
  /** The conversation's title, from its first user message. */
  readonly title: (firstMessage: string) => string;
  /** Continue this stored conversation: its messages are already in the database. */
  readonly resumeId?: string;
  /** The provider and model in force, stored with a new conversation. */
  readonly describe: () => { readonly provider: string; readonly model: string };
  /** The conversation as it stands: the agent's entries, system prompt and summaries included. */
  readonly entries: () => readonly ConversationEntry[];
  /** A subagent's conversation: the conversation that started it, and its label. */
  readonly parent?: { readonly id: string; readonly label: string };
}

/**
 * Records a conversation in the history database by listening to the agent's events.
 * Each finished turn is written when the next one starts (one transaction with the usage
 * and turn totals so far), so a crash loses at most the turn in flight; `finished` stores
 * how the run ended. Successive runs continue the same stored conversation.
 */
export interface HistoryRecorder {
  /** Feed every event of every run, in order. */
  onEvent(event: AgentEvent): void;
  /** Starts a new stored conversation with the next message (`/clear`). */
  clear(): void;
  /**
   * Makes sure the conversation is stored (one that starts a subagent must exist before its
   * child does) and returns its id, if there is anything to store. A conversation already
   * stored is not written again here: its new messages go in with its turn, as ever.
   */
  store(): string | undefined;
  /** Set once the conversation row exists (after the first write). */
  readonly conversationId: string | undefined;
}

const ZERO: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/** The entries that are history: no system prompt, no summary records. */
function historyEntries(entries: readonly ConversationEntry[]): ConversationEntry[] {
  return entries.filter((entry) => !entry.summary && entry.message.role !== "system");
}

/**
 * A recorder over the history database: the conversation row is created with the first
 * write; messages are appended in order and entries pruned since are marked.
 *
 * @example
 * const recorder = createHistoryRecorder(history, {
 *   title: (first) => first.slice(0, 80),
 *   describe: () => ({ provider: "ollama", model }),
 *   entries: () => agent.conversation.entries(),
 * });
 * await agent.run(prompt, { onEvent: recorder.onEvent });
 */
export function createHistoryRecorder(
  history: History,
  options: HistoryRecorderOptions,
): HistoryRecorder {
  let conversationId: string | undefined;
  let base = { usage: ZERO, turns: 0 };
  /** Sequence numbers of what this recorder wrote, by entry index, and whether pruned. */
  let written: { sequence: number; pruned: boolean }[] = [];
  let skip = 0;
  let runUsage = ZERO;
  let runTurns = 0;
  if (options.resumeId) {
    const existing = history.getConversation(options.resumeId);
    if (existing) {
      conversationId = existing.id;
      base = { usage: { ...existing.usage }, turns: existing.turns };
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

  /** Writes what is not stored yet, in one transaction (creating the conversation too). */
  function write(usage: Usage, turns: number): void {
    inOneCommit(() => writeUnbatched(usage, turns));
  }

  /**
   * Runs `writes` in one transaction; when it fails (and nothing was kept) what this
   * recorder believes it stored is put back as it was, so the next write tries again.
   */
  function inOneCommit<T>(writes: () => T): T {
    const before = { conversationId, written: written.map((entry) => ({ ...entry })) };
    try {
      return history.batch(writes);
    } catch (error) {
      conversationId = before.conversationId;
      written = before.written;
      throw error;
    }
  }

  function writeUnbatched(usage: Usage, turns: number): void {
    const all = historyEntries(options.entries()).slice(skip);
    const fresh = all.slice(written.length);
    const prunedChanged = written.some(
      (entry, index) => entry.pruned !== (all[index]?.pruned ?? false),
    );
    if (fresh.length === 0 && !prunedChanged) return;
    if (!conversationId) {
      const first =
        all.find((entry) => entry.message.role === "user")?.message.content ?? "conversation";
      const described = options.describe();
      conversationId = history.createConversation({
        title: options.title(first),
        provider: described.provider,
        model: described.model,
        ...(options.parent ? { parentId: options.parent.id, label: options.parent.label } : {}),
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
    onEvent(event) {
      switch (event.type) {
        case "run-started":
          runUsage = ZERO;
          runTurns = 0;
          break;
        case "usage":
          runUsage = event.totals;
          break;
        case "turn-started":
          runTurns = event.turn;
          if (event.turn > 1) write(runUsage, event.turn - 1);
          break;
        case "finished": {
          // The last messages and how the run ended: one commit.
          const outcome = totals(event.usage, event.turns);
          const stored = inOneCommit(() => {
            writeUnbatched(event.usage, event.turns);
            if (!conversationId) return false;
            history.finishConversation(conversationId, {
              status: statusForStopReason(event.stopReason),
              stopReason: event.stopReason,
              usage: outcome.usage,
              turns: outcome.turns,
            });
            return true;
          });
          if (!stored) return;
          // The next run continues the same conversation.
          base = outcome;
          skip += written.length;
          written = [];
          break;
        }
        default:
          break;
      }
    },
    store() {
      if (conversationId === undefined) write(runUsage, Math.max(0, runTurns - 1));
      return conversationId;
    },
    clear() {
      conversationId = undefined;
      base = { usage: ZERO, turns: 0 };
      written = [];
      skip = 0;
    },
  };
}
