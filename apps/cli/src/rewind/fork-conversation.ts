import path from "node:path";
import {
  appendCheckpointLines,
  readCheckpointLines,
  type History,
  type StoredMessage,
} from "@xzatoma/persistence";

/**
 * Where the conversation stood before turn `toTurn` (1 for the first model request): the
 * number of stored messages to keep. The turn's model answer goes, and so does the prompt
 * that started it when it was the first turn of its run.
 */
export function messagesBeforeTurn(messages: readonly StoredMessage[], toTurn: number): number {
  let assistants = 0;
  for (const [index, stored] of messages.entries()) {
    if (stored.role !== "assistant") continue;
    assistants += 1;
    if (assistants < toTurn) continue;
    return messages[index - 1]?.role === "user" ? index - 1 : index;
  }
  return messages.length;
}

/**
 * Copies the conversation `id` up to `keep` messages into a new conversation titled `title`
 * (the original stays in history as it is), and the checkpoints of its turns before
 * `toTurn`, so the fork can be rewound further. Returns the new conversation's id.
 */
export function forkConversation(
  history: History,
  dataDir: string,
  id: string,
  options: {
    readonly keep: number;
    readonly toTurn: number;
    readonly title: string;
    /** How the fork is marked in history. Default `rewound`. */
    readonly stopReason?: "rewound" | "forked";
  },
): string {
  const original = history.getConversation(id);
  if (!original) throw new Error(`No stored conversation '${id}'.`);
  const kept = original.messages.slice(0, options.keep);
  const forkId = history.batch(() => {
    const fork = history.createConversation({
      title: options.title,
      provider: original.provider,
      model: original.model,
    });
    if (kept.length > 0) {
      history.appendMessages(
        fork.id,
        kept.map((stored) => ({
          message: stored.message,
          pruned: stored.pruned,
          pinned: stored.pinned,
        })),
      );
    }
    history.finishConversation(fork.id, {
      status: "interrupted",
      stopReason: options.stopReason ?? "rewound",
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      turns: kept.filter((stored) => stored.role === "assistant").length,
    });
    return fork.id;
  });
  const checkpoints = path.join(dataDir, "checkpoints");
  const lines = readCheckpointLines(checkpoints, id).filter((line) => line.turn < options.toTurn);
  appendCheckpointLines(checkpoints, forkId, lines);
  return forkId;
}

/**
 * A new branch of the whole conversation `id` (`chat --resume ID --fork`, `/fork`): every
 * message and every checkpoint copied into a new conversation; the original stays in
 * history as it is. Returns the fork's id.
 */
export function forkWholeConversation(history: History, dataDir: string, id: string): string {
  const original = history.getConversation(id);
  if (!original) throw new Error(`No stored conversation '${id}'.`);
  return forkConversation(history, dataDir, original.id, {
    keep: original.messages.length,
    toTurn: Number.MAX_SAFE_INTEGER,
    title: `${original.title} (fork)`,
    stopReason: "forked",
  });
}
