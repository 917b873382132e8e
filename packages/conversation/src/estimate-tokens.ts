import type { Message } from "./message.js";

/**
 * Characters per token assumed by the heuristic estimator. Four characters per token
 * is the usual average for English text and code across BPE tokenizers.
 */
export const CHARACTERS_PER_TOKEN = 4;

/** Estimates the tokens of a text with the character heuristic (`ceil(chars / 4)`). */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

/**
 * Estimates the tokens one message costs: its text plus, for each tool call, the
 * tool name and its JSON arguments. Provider-reported usage is the truth; this
 * estimate only covers messages added since the last report.
 */
export function estimateMessageTokens(message: Message): number {
  let tokens = estimateTextTokens(message.content);
  if (message.role === "assistant") {
    for (const call of message.toolCalls) {
      tokens +=
        estimateTextTokens(call.name) + estimateTextTokens(JSON.stringify(call.input) ?? "");
    }
  }
  return tokens;
}

/** Estimates the tokens of a list of messages. */
export function estimateMessagesTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}
