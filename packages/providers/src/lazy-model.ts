import type { LanguageModelV4 } from "@ai-sdk/provider";

/**
 * A model whose SDK loads on its first request. The OpenAI SDKs weigh ~25 MiB each and are
 * not needed by a session that talks to Ollama or a local model, so they are imported only
 * when a request is made.
 *
 * This is the model at the bottom of a stack, not a middleware: a middleware is handed the
 * model below it, and here there is none until the SDK is loaded. The retries and error
 * wording are composed over it with `wrapLanguageModel`.
 */
export function lazyModel(
  provider: string,
  modelId: string,
  load: () => Promise<LanguageModelV4>,
): LanguageModelV4 {
  let loaded: Promise<LanguageModelV4> | undefined;
  const get = () => (loaded ??= load());
  return {
    specificationVersion: "v4",
    provider,
    modelId,
    supportedUrls: {},
    doGenerate: async (options) => (await get()).doGenerate(options),
    doStream: async (options) => (await get()).doStream(options),
  };
}
