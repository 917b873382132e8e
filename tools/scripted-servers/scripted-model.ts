// An in-process language model for tests that need an agent run but no server (telemetry
// of a run in the apps). Tests that exercise a provider use the scripted servers instead.
import type { LanguageModelV4 } from "@ai-sdk/provider";

type Model = LanguageModelV4;

/** One scripted answer: text, or tool calls. */
export interface Reply {
  readonly text?: string;
  readonly toolCalls?: readonly { readonly name: string; readonly input: unknown }[];
}

/**
 * A language model (specification v4) that answers from a script: the n-th request gets
 * `script[n]` (the last one repeats), reporting 10 input and 5 output tokens each time.
 */
export function scriptedModel(...script: Reply[]): Model {
  let calls = 0;
  const model = {
    specificationVersion: "v4",
    provider: "scripted",
    modelId: "scripted-model",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("only streaming is scripted")),
    doStream: () => {
      const index = calls;
      calls += 1;
      const reply = script[Math.min(index, script.length - 1)] ?? { text: "" };
      const parts: unknown[] = [{ type: "stream-start", warnings: [] }];
      if (reply.text) {
        parts.push({ type: "text-start", id: "t" });
        parts.push({ type: "text-delta", id: "t", delta: reply.text });
        parts.push({ type: "text-end", id: "t" });
      }
      (reply.toolCalls ?? []).forEach((call, position) =>
        parts.push({
          type: "tool-call",
          toolCallId: `call-${index}-${position}`,
          toolName: call.name,
          input: JSON.stringify(call.input),
        }),
      );
      parts.push({
        type: "finish",
        usage: {
          inputTokens: {
            total: 10,
            noCache: undefined,
            cacheRead: undefined,
            cacheWrite: undefined,
          },
          outputTokens: { total: 5, text: undefined, reasoning: undefined },
        },
        finishReason: { unified: reply.toolCalls ? "tool-calls" : "stop", raw: undefined },
      });
      const stream = new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
      return Promise.resolve({ stream });
    },
  };
  return model as unknown as Model;
}
