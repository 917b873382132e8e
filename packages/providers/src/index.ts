export {
  createOllamaModel,
  DEFAULT_OLLAMA_MODEL,
  OLLAMA_TOOL_MODELS,
  type OllamaModelOptions,
} from "./ollama.js";
export {
  findOllamaTag,
  inspectOllamaModel,
  listOllamaTags,
  type ListOllamaTagsOptions,
  type OllamaModelInfo,
  type OllamaTag,
} from "./ollama-model-info.js";
export {
  parseTextToolCalls,
  withTextToolCalls,
  type RecoveredToolCall,
} from "./text-tool-calls.js";
export { DEFAULT_OLLAMA_HOST, normalizeOllamaHost, resolveOllamaHost } from "./ollama-host.js";
export {
  connectionErrorCode,
  translateProviderError,
  withProviderErrors,
  type ExplainedProviderError,
  type ProviderErrorWording,
} from "./provider-errors.js";
export * from "./openai/index.js";
export * from "./copilot/index.js";
export * from "./retry/index.js";
export * from "./local/index.js";
export * from "./credentials/index.js";
export {
  isProviderType,
  PROVIDER_TYPES,
  providerConfigSchema,
  type ProviderConfig,
  type ProviderType,
} from "./provider-config.js";
export {
  createProvider,
  type ModelInfo,
  type ModelListing,
  type Provider,
  type ProviderOptions,
} from "./provider.js";
export { generateAsStream } from "./generate-as-stream.js";
export { withBearerKey, type BearerKeyOptions } from "./bearer-fetch.js";
