export { createOllamaModel, DEFAULT_OLLAMA_MODEL, type OllamaModelOptions } from "./ollama.js";
export { DEFAULT_OLLAMA_HOST, normalizeOllamaHost, resolveOllamaHost } from "./ollama-host.js";
export {
  connectionErrorCode,
  translateProviderError,
  withProviderErrors,
  type ProviderErrorWording,
} from "./provider-errors.js";
