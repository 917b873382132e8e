import type { AgentRuntimeOptions } from "@xzatoma/runtime";

/** The provider a runtime is given (`@xzatoma/providers`' `Provider`). */
type Provider = NonNullable<AgentRuntimeOptions["provider"]>;

type LanguageModel = ReturnType<Provider["languageModel"]>;

/**
 * Providers whose language model is an HTTP client's configuration and nothing else: the
 * same object serves concurrent requests, and a request carries its whole conversation. The
 * local provider is not among them (a loaded model file, checked again for each runtime).
 */
const SHAREABLE: ReadonlySet<Provider["name"]> = new Set(["openai", "ollama"]);

/**
 * `provider`, with each model's client made once and used by every runtime of the service
 * (building it costs what building the rest of a runtime does: the client's response
 * schemas). A request that fails drops the shared client, so the next runtime makes a new one
 * (a credential read again, a connection looked up again). Other providers are returned as
 * they are.
 */
export function withSharedModels(provider: Provider): Provider {
  if (!SHAREABLE.has(provider.name)) return provider;
  const models = new Map<string, LanguageModel>();
  const shared = (name: string): LanguageModel => {
    const existing = models.get(name);
    if (existing) return existing;
    const inner = provider.languageModel(name);
    const forget = (error: unknown): never => {
      if (models.get(name) === model) models.delete(name);
      throw error;
    };
    const model: LanguageModel = {
      specificationVersion: inner.specificationVersion,
      provider: inner.provider,
      modelId: inner.modelId,
      get supportedUrls() {
        return inner.supportedUrls;
      },
      doGenerate: (options) => Promise.resolve(inner.doGenerate(options)).catch(forget),
      doStream: (options) => Promise.resolve(inner.doStream(options)).catch(forget),
    };
    models.set(name, model);
    return model;
  };
  return new Proxy(provider, {
    get(target, property, receiver) {
      if (property === "languageModel") return shared;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
