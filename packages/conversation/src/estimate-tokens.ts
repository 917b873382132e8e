import type { Message } from "./message.js";

/**
 * Characters per token assumed by the heuristic estimator. Four characters per token
 * is the usual average for English text and code across BPE tokenizers.
 */
export const CHARACTERS_PER_TOKEN = 4;

/**
 * Tokens the heuristic assumes per CJK character (ideographs, kana, hangul, full-width
 * forms). BPE tokenizers spend far more than a quarter token on these: o200k spends
 * about 0.7 per character on Chinese and Japanese prose.
 */
export const TOKENS_PER_CJK_CHARACTER = 0.7;

const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;
const CJK_ALL = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;

/**
 * Estimates the tokens of a text with the character heuristic: `ceil(chars / 4)`, where
 * each CJK character counts {@link TOKENS_PER_CJK_CHARACTER} instead of a quarter.
 */
export function estimateTextTokens(text: string): number {
  if (!CJK.test(text)) return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
  const cjk = text.match(CJK_ALL)?.length ?? 0;
  return Math.ceil((text.length - cjk) / CHARACTERS_PER_TOKEN + cjk * TOKENS_PER_CJK_CHARACTER);
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
