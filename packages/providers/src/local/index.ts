export { createLocalModel, loadLocalModel } from "./model.js";
export {
  DEFAULT_LOCAL_CONTEXT_SIZE,
  DEFAULT_LOCAL_MAX_TOKENS,
  DEFAULT_LOCAL_SAMPLING,
  type LocalLanguageModel,
  type LocalModelOptions,
  type LocalSampling,
} from "./options.js";
export { LocalModelUnavailableError, type LocalModelUnavailableReason } from "./errors.js";
export {
  DEFAULT_LOCAL_MODEL_FILE,
  DEFAULT_LOCAL_MODEL_NAME,
  defaultLocalModelFetchCommand,
  defaultLocalModelPath,
  missingDefaultLocalModelMessage,
  resolveLocalModelPath,
  type LocalModelLocation,
} from "./model-path.js";
export { disposeLocalModels, LOCAL_RUNTIME_PACKAGE } from "./runtime.js";
export { LOCAL_TOOL_INSTRUCTIONS } from "./tool-instructions.js";
