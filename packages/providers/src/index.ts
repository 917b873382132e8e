export { createOllamaModel, DEFAULT_OLLAMA_MODEL, type OllamaModelOptions } from "./ollama.js";
export { DEFAULT_OLLAMA_HOST, normalizeOllamaHost, resolveOllamaHost } from "./ollama-host.js";
export {
  connectionErrorCode,
  translateProviderError,
  withProviderErrors,
  type ProviderErrorWording,
} from "./provider-errors.js";
export * from "./openai/index.js";
export * from "./copilot/index.js";
export * from "./retry/index.js";
export * from "./local/index.js";
export * from "./credentials/index.js";
