export {
  createOllamaModel,
  DEFAULT_OLLAMA_MODEL,
  OLLAMA_TOOL_MODELS,
  type OllamaModelOptions,
} from "./ollama.js";
export { inspectOllamaModel, type OllamaModelInfo } from "./ollama-model-info.js";
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
  type ProviderErrorWording,
} from "./provider-errors.js";
export * from "./openai/index.js";
export * from "./copilot/index.js";
export * from "./retry/index.js";
export * from "./local/index.js";
export * from "./credentials/index.js";
