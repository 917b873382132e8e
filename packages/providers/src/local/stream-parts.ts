// The AI SDK's side of a local answer: stream parts written as well-formed blocks, the
// finish reason and usage, and a whole answer collected from the stream.
import type {
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
  SharedV4Warning,
} from "@ai-sdk/provider";
import { ProviderError } from "@xzatoma/core";
import type { LlamaContextSequence, TokenMeterState } from "node-llama-cpp";

/** The AI SDK's finish reason for node-llama-cpp's stop reason. */
export function finishReason(
  stopReason: string,
  calledTools: boolean,
): LanguageModelV4FinishReason {
  if (calledTools) return { unified: "tool-calls", raw: stopReason };
  switch (stopReason) {
    case "maxTokens":
      return { unified: "length", raw: stopReason };
    case "abort":
      return { unified: "other", raw: stopReason };
    default:
      return { unified: "stop", raw: stopReason };
  }
}

/** The tokens a generation read and wrote, from the sequence's meter since `before`. */
export function usageSince(
  sequence: LlamaContextSequence,
  before: TokenMeterState,
): LanguageModelV4Usage {
  const { usedInputTokens, usedOutputTokens } = sequence.tokenMeter.diff(before);
  // The context holds the whole prompt (reused from the cache or evaluated now) and the answer.
  const inputTotal = Math.max(usedInputTokens, sequence.nextTokenIndex - usedOutputTokens);
  return {
    inputTokens: {
      total: inputTotal,
      noCache: usedInputTokens,
      cacheRead: inputTotal - usedInputTokens,
      cacheWrite: undefined,
    },
    outputTokens: { total: usedOutputTokens, text: undefined, reasoning: undefined },
  };
}

/** Writes text and reasoning deltas as well-formed start/delta/end blocks. */
export class BlockWriter {
  #text: string | undefined;
  #reasoning: string | undefined;
  #blocks = 0;
  /** Whether any text (not reasoning) was written. */
  wroteText = false;

  constructor(private readonly emit: (part: LanguageModelV4StreamPart) => void) {}

  text(delta: string): void {
    if (delta === "") return;
    this.wroteText = true;
    this.endReasoning();
    if (this.#text === undefined) {
      this.#text = `text-${this.#blocks++}`;
      this.emit({ type: "text-start", id: this.#text });
    }
    this.emit({ type: "text-delta", id: this.#text, delta });
  }

  reasoning(delta: string): void {
    if (delta === "") return;
    this.endText();
    if (this.#reasoning === undefined) {
      this.#reasoning = `reasoning-${this.#blocks++}`;
      this.emit({ type: "reasoning-start", id: this.#reasoning });
    }
    this.emit({ type: "reasoning-delta", id: this.#reasoning, delta });
  }

  endText(): void {
    if (this.#text === undefined) return;
    this.emit({ type: "text-end", id: this.#text });
    this.#text = undefined;
  }

  endReasoning(): void {
    if (this.#reasoning === undefined) return;
    this.emit({ type: "reasoning-end", id: this.#reasoning });
    this.#reasoning = undefined;
  }

  end(): void {
    this.endReasoning();
    this.endText();
  }
}

/** The whole answer of a local model's `stream`, as `doGenerate` returns it. */
export async function generateResultOf(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  modelId: string,
): Promise<LanguageModelV4GenerateResult> {
  const content: LanguageModelV4Content[] = [];
  const texts = new Map<string, { type: "text" | "reasoning"; text: string }>();
  let warnings: SharedV4Warning[] = [];
  let finish: Extract<LanguageModelV4StreamPart, { type: "finish" }> | undefined;
  let responseModelId = modelId;
  let timestamp = new Date();
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part.type) {
        case "stream-start":
          warnings = part.warnings;
          break;
        case "response-metadata":
          responseModelId = part.modelId ?? responseModelId;
          timestamp = part.timestamp ?? timestamp;
          break;
        case "text-start":
        case "reasoning-start": {
          const block = { type: part.type === "text-start" ? "text" : "reasoning", text: "" };
          texts.set(part.id, block as { type: "text" | "reasoning"; text: string });
          content.push(block as LanguageModelV4Content);
          break;
        }
        case "text-delta":
        case "reasoning-delta": {
          const block = texts.get(part.id);
          if (block) block.text += part.delta;
          break;
        }
        case "tool-call":
          content.push(part);
          break;
        case "error":
          throw part.error;
        case "finish":
          finish = part;
          break;
        default:
          break;
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (!finish) throw new ProviderError(`The local model ${modelId} ended without finishing.`);
  return {
    content,
    finishReason: finish.finishReason,
    usage: finish.usage,
    warnings,
    response: { modelId: responseModelId, timestamp },
  };
}
