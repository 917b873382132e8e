import type { AgentResult } from "@xzatoma/core";
import type { Message } from "@xzatoma/conversation";
import { statusForStopReason, type History } from "@xzatoma/persistence";
import type { ChatState } from "../chat/chat-engine.js";
import type { TurnRecorder } from "../session/agent-session.js";

/**
 * Writes each finished turn of a session to the history database: the conversation is
 * created with the first turn, messages are appended in one transaction per turn, so a
 * crash loses at most the turn in flight.
 */
export function createHistoryRecorder(
  history: History,
  options: { title: (firstMessage: string) => string; resumeId?: string },
): TurnRecorder & { readonly conversationId: string | undefined } {
  let conversationId = options.resumeId;
  let usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let turns = 0;
  if (options.resumeId) {
    const existing = history.getConversation(options.resumeId);
    if (existing) {
      usage = { ...existing.usage };
      turns = existing.turns;
    }
  }
  return {
    get conversationId() {
      return conversationId;
    },
    record(messages: readonly Message[], result: AgentResult, state: ChatState) {
      if (messages.length === 0) return;
      if (!conversationId) {
        const first =
          messages.find((message) => message.role === "user")?.content ?? "conversation";
        conversationId = history.createConversation({
          title: options.title(first),
          provider: state.provider,
          model: state.model,
        }).id;
      }
      usage = {
        inputTokens: usage.inputTokens + result.usage.inputTokens,
        outputTokens: usage.outputTokens + result.usage.outputTokens,
        totalTokens: usage.totalTokens + result.usage.totalTokens,
      };
      turns += result.turns;
      history.appendMessages(
        conversationId,
        messages.map((message) => ({ message })),
        { usage, turns },
      );
      history.finishConversation(conversationId, {
        status: statusForStopReason(result.stopReason),
        stopReason: result.stopReason,
        usage,
        turns,
      });
    },
    clear() {
      conversationId = undefined;
      usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
      turns = 0;
    },
  };
}

/** A title from the first message: its first line, at most 80 characters. */
export function titleFrom(text: string): string {
  const line = (text.split("\n")[0] ?? "").trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line || "conversation";
}
