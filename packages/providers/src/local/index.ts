export {
  createLocalModel,
  DEFAULT_LOCAL_CONTEXT_SIZE,
  DEFAULT_LOCAL_MAX_TOKENS,
  loadLocalModel,
  type LocalLanguageModel,
  type LocalModelOptions,
} from "./model.js";
export { LocalModelUnavailableError, type LocalModelUnavailableReason } from "./errors.js";
export { disposeLocalModels, LOCAL_RUNTIME_PACKAGE } from "./runtime.js";
