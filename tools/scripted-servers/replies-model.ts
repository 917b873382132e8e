// A scripted mock model for tests of an agent run: replies in order, tool calls with their ids,
// a stream error, or a stream that never ends until aborted. `next(call, options)` also lets
// a test read what the agent sent. Built on the AI SDK's own mock model (`ai/test`).
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";

/** One scripted model response: text, tool calls, or a stream error. */
export interface ScriptedReply {
  readonly text?: string;
  readonly toolCalls?: readonly {
    readonly name: string;
    readonly input: unknown;
    readonly id?: string;
  }[];
  readonly error?: string;
  /** Never finishes until the request is aborted. */
  readonly hang?: boolean;
}

const usage = {
  inputTokens: { total: 10, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: undefined, reasoning: undefined },
};

function partsFor(reply: ScriptedReply, callIndex: number): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (reply.error) return [...parts, { type: "error", error: new Error(reply.error) }];
  if (reply.text) {
    parts.push({ type: "text-start", id: "t" });
    for (const word of reply.text.split(/(?<= )/))
      parts.push({ type: "text-delta", id: "t", delta: word });
    parts.push({ type: "text-end", id: "t" });
  }
  (reply.toolCalls ?? []).forEach((call, index) => {
    parts.push({
      type: "tool-call",
      toolCallId: call.id ?? `call-${callIndex}-${index}`,
      toolName: call.name,
      input: typeof call.input === "string" ? call.input : JSON.stringify(call.input),
    });
  });
  parts.push({
    type: "finish",
    usage,
    finishReason: { unified: reply.toolCalls ? "tool-calls" : "stop", raw: undefined },
  });
  return parts;
}

/**
 * A mock model that answers from a script. `next(call, options)` returns the reply
 * for the n-th request (0-based), so a test can also inspect what the agent sent.
 */
export function scriptedModel(
  next: (call: number, options: LanguageModelV4CallOptions) => ScriptedReply,
) {
  let calls = 0;
  return new MockLanguageModelV4({
    doStream: async (options) => {
      const reply = next(calls, options);
      const parts = partsFor(reply, calls);
      calls += 1;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          if (reply.hang) {
            controller.enqueue({ type: "stream-start", warnings: [] });
            options.abortSignal?.addEventListener("abort", () =>
              controller.error(options.abortSignal?.reason),
            );
            return;
          }
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
      return { stream };
    },
  });
}

/** Replies in order; the last reply repeats. */
export function replies(...script: ScriptedReply[]) {
  return scriptedModel((call) => script[Math.min(call, script.length - 1)] ?? { text: "" });
}
