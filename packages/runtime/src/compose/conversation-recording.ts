import type { ConversationEntry, Message } from "@xzatoma/conversation";
import { createHistoryRecorder, type History, type HistoryRecorder } from "@xzatoma/persistence";
import type { TurnCheckpoints } from "../turn-checkpoints.js";

/**
 * Starts recording a conversation (a new one, or the stored `continued` one with its
 * `messages`): its history recorder, and the turn checkpoints attached to it so each turn's
 * changes can be rewound. Undefined, and nothing recorded, when history is off.
 */
export type StartRecording = (
  continued: string | undefined,
  messages: readonly Message[],
) => HistoryRecorder | undefined;

/** What a runtime's conversations are recorded with. */
export interface RecordingParts {
  readonly history: History | undefined;
  readonly checkpoints: TurnCheckpoints;
  readonly workspace: string;
  /** A new conversation's title from its first message. Default {@link conversationTitle}. */
  readonly title: ((firstMessage: string) => string) | undefined;
  /** The provider and model in force. */
  readonly describe: () => { readonly provider: string; readonly model: string };
  /** The conversation as it stands (the agent's entries). */
  readonly entries: () => readonly ConversationEntry[];
}

/** The {@link StartRecording} of a runtime. */
export function createConversationRecording(parts: RecordingParts): StartRecording {
  const { history } = parts;
  return (continued, messages) => {
    if (!history) return undefined;
    const recorder = createHistoryRecorder(history, {
      title: parts.title ?? conversationTitle,
      ...(continued ? { resumeId: continued } : {}),
      describe: parts.describe,
      entries: parts.entries,
    });
    parts.checkpoints.attach({
      workspace: parts.workspace,
      // Stored before a change is recorded, so a change's record always has a conversation;
      // a turn's start waits for the id (the first request is not held up by the database).
      conversationId: (store = true) =>
        recorder.conversationId ?? (store ? recorder.store() : undefined),
      firstTurn: messages.filter((message) => message.role === "assistant").length + 1,
    });
    return recorder;
  };
}

/**
 * A conversation's title from a text: its first line, at most 80 characters.
 *
 * @example
 * conversationTitle("Fix the flaky test\nin cli.e2e"); // "Fix the flaky test"
 */
export function conversationTitle(text: string): string {
  const line = (text.split("\n")[0] ?? "").trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line || "conversation";
}
