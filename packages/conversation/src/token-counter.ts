import { estimateTextTokens } from "./estimate-tokens.js";
import type { Message } from "./message.js";

/**
 * Counts the tokens of a text for one model family. Counters are synchronous so a
 * conversation can count each message once, as it is appended.
 */
export interface TokenCounter {
  /** The tokenizer's name, e.g. `o200k_base` or `heuristic`; stored with a serialised conversation. */
  readonly name: string;
  /** The number of tokens `text` costs. */
  count(text: string): number;
}

/** Name of the character-heuristic counter. */
export const HEURISTIC_TOKENIZER = "heuristic";

/** Name of the counter backed by gpt-tokenizer's `o200k_base` encoding. */
export const O200K_TOKENIZER = "o200k_base";

/**
 * Tokens each message costs beyond its text: role and framing. OpenAI's chat format
 * spends 3 to 4; other providers are similar.
 */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Creates the counter that uses the character heuristic ({@link estimateTextTokens}). */
export function createHeuristicCounter(): TokenCounter {
  return { name: HEURISTIC_TOKENIZER, count: estimateTextTokens };
}

const O200K_MODEL =
  /^(?:gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|chatgpt-4o|codex-mini|computer-use|o[1-9](?:-|$))/;

/**
 * Whether a model id names an OpenAI model tokenised with `o200k_base`: gpt-4o, gpt-4.1,
 * gpt-4.5, gpt-5, gpt-oss and the o-series. Provider prefixes and tags are ignored, so
 * `openai/gpt-4o`, `copilot:gpt-5-mini` and `gpt-oss:20b` all match.
 */
export function usesO200kTokenizer(modelId: string): boolean {
  return modelId
    .toLowerCase()
    .split(/[/:@\s]/)
    .some((segment) => O200K_MODEL.test(segment));
}

type CountTokens = (text: string) => number;
let o200k: Promise<CountTokens | undefined> | undefined;

function loadO200k(): Promise<CountTokens | undefined> {
  o200k ??= import("gpt-tokenizer/encoding/o200k_base").then(
    (tokenizer) => {
      // Special-token text such as `<|endoftext|>` in a tool output is ordinary text to a
      // provider: count it as text instead of throwing.
      const options = { disallowedSpecial: new Set<string>() };
      return (text: string) => (text === "" ? 0 : tokenizer.countTokens(text, options));
    },
    () => undefined,
  );
  return o200k;
}

/**
 * Creates the counter for a model: `o200k_base` for the OpenAI models of
 * {@link usesO200kTokenizer} when the optional peer dependency `gpt-tokenizer` is
 * installed (loaded once, lazily), the character heuristic otherwise.
 */
export async function createTokenCounter(modelId: string): Promise<TokenCounter> {
  if (!usesO200kTokenizer(modelId)) return createHeuristicCounter();
  const count = await loadO200k();
  return count ? { name: O200K_TOKENIZER, count } : createHeuristicCounter();
}

function stringifyInput(input: unknown): string {
  if (typeof input === "string") return input;
  try {
    return JSON.stringify(input) ?? "";
  } catch {
    return String(input);
  }
}

/**
 * The tokens one message costs with `counter`: {@link MESSAGE_OVERHEAD_TOKENS}, its text,
 * and for tool calls the id, name and JSON arguments (for tool results, the call id).
 */
export function countMessageTokens(message: Message, counter: TokenCounter): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + counter.count(message.content);
  if (message.role === "assistant") {
    for (const call of message.toolCalls) {
      tokens +=
        counter.count(call.id) +
        counter.count(call.name) +
        counter.count(stringifyInput(call.input));
    }
  } else if (message.role === "tool") {
    tokens += counter.count(message.toolCallId);
  }
  return tokens;
}
