import type {
  LanguageModelV4,
  LanguageModelV4GenerateResult,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { wrapLanguageModel } from "./middleware.js";

/** The parts a stream of `result` would have had: its content in order, then the finish. */
export function streamPartsOf(result: LanguageModelV4GenerateResult): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: result.warnings }];
  if (result.response) {
    parts.push({
      type: "response-metadata",
      ...(result.response.id === undefined ? {} : { id: result.response.id }),
      ...(result.response.modelId === undefined ? {} : { modelId: result.response.modelId }),
      ...(result.response.timestamp === undefined ? {} : { timestamp: result.response.timestamp }),
    });
  }
  result.content.forEach((part, index) => {
    const id = String(index);
    switch (part.type) {
      case "text":
        if (part.text === "") break;
        parts.push({ type: "text-start", id });
        parts.push({ type: "text-delta", id, delta: part.text });
        parts.push({ type: "text-end", id });
        break;
      case "reasoning":
        parts.push({ type: "reasoning-start", id });
        parts.push({ type: "reasoning-delta", id, delta: part.text });
        parts.push({ type: "reasoning-end", id });
        break;
      default:
        // Tool calls, tool results, files and sources are stream parts as they are.
        parts.push(part as LanguageModelV4StreamPart);
        break;
    }
  });
  parts.push({
    type: "finish",
    finishReason: result.finishReason,
    usage: result.usage,
    ...(result.providerMetadata ? { providerMetadata: result.providerMetadata } : {}),
  });
  return parts;
}

/**
 * Middleware whose `doStream` asks for the whole answer at once (`doGenerate`) and hands it
 * over as a stream, for servers or settings where streaming is off. The caller sees the
 * same parts as from a streamed answer, all at the end.
 */
export const generateAsStreamMiddleware: LanguageModelV4Middleware = {
  specificationVersion: "v4",
  async wrapStream({ doGenerate }) {
    const result = await doGenerate();
    const parts = streamPartsOf(result);
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
      ...(result.request ? { request: result.request } : {}),
      ...(result.response ? { response: { headers: result.response.headers } } : {}),
    };
  },
};

/** `model` with {@link generateAsStreamMiddleware}. */
export function generateAsStream(model: LanguageModelV4): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: generateAsStreamMiddleware });
}
