export { UNKNOWN_CAPABILITIES, type ListedModel, type ModelCapabilities } from "./model-info.js";
export {
  createOpenAIModel,
  DEFAULT_OPENAI_BASE_URL,
  isOpenAIBaseURL,
  listOpenAIModels,
  parseOpenAIModels,
  resolveOpenAIConnection,
  type ListOpenAIModelsOptions,
  type OpenAIConnectionOptions,
  type OpenAIModelInfo,
  type OpenAIModelOptions,
  type ResolvedOpenAIConnection,
} from "./openai.js";
