import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Middleware,
} from "@ai-sdk/provider";

/**
 * Applies AI SDK middleware to a model, by the AI SDK's own rule (`wrapLanguageModel` of the
 * `ai` package): the first middleware sees a call first, the last one sits next to the model,
 * and each one's `model` is the model below it. Every XZatoma provider composes its stack
 * (retries, error wording, text tool calls, streaming, Ollama's defaults) once, here.
 *
 * The `ai` package is not imported for this: its entry module loads zod and about 300 KB of
 * code, which would then sit between launching `xzatoma run` and its first request. The
 * middleware objects are the AI SDK's type and work with its `wrapLanguageModel` as well
 * (a test composes them with both).
 *
 * @example
 * const model = wrapLanguageModel({
 *   model: createOllamaModel({ model: "qwen2.5:7b" }),
 *   middleware: [textToolCallsMiddleware()],
 * });
 */
export function wrapLanguageModel(options: {
  readonly model: LanguageModelV4;
  readonly middleware: LanguageModelV4Middleware | readonly LanguageModelV4Middleware[];
}): LanguageModelV4 {
  const layers = Array.isArray(options.middleware) ? options.middleware : [options.middleware];
  return [...(layers as readonly LanguageModelV4Middleware[])]
    .reverse()
    .reduce<LanguageModelV4>((model, middleware) => wrapOnce(model, middleware), options.model);
}

function wrapOnce(model: LanguageModelV4, middleware: LanguageModelV4Middleware): LanguageModelV4 {
  const { transformParams, wrapGenerate, wrapStream } = middleware;
  const transform = async (
    params: LanguageModelV4CallOptions,
    type: "generate" | "stream",
  ): Promise<LanguageModelV4CallOptions> =>
    transformParams ? await transformParams({ params, type, model }) : params;
  return {
    specificationVersion: "v4",
    provider: middleware.overrideProvider?.({ model }) ?? model.provider,
    modelId: middleware.overrideModelId?.({ model }) ?? model.modelId,
    // Read when asked, as the model below may learn its URLs late (a model loaded lazily).
    get supportedUrls() {
      return middleware.overrideSupportedUrls?.({ model }) ?? model.supportedUrls;
    },
    async doGenerate(callParams) {
      const params = await transform(callParams, "generate");
      const doGenerate = async () => model.doGenerate(params);
      const doStream = async () => model.doStream(params);
      return wrapGenerate ? wrapGenerate({ doGenerate, doStream, params, model }) : doGenerate();
    },
    async doStream(callParams) {
      const params = await transform(callParams, "stream");
      const doGenerate = async () => model.doGenerate(params);
      const doStream = async () => model.doStream(params);
      return wrapStream ? wrapStream({ doGenerate, doStream, params, model }) : doStream();
    },
  };
}
