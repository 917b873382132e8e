// The public API. Helpers shared between the providers (retry, redaction, HTTP, the
// Copilot and OpenAI wire details) stay inside the package.
export { createOllamaModel, DEFAULT_OLLAMA_MODEL, type OllamaModelOptions } from "./ollama.js";
export {
  findOllamaTag,
  inspectOllamaModel,
  listOllamaTags,
  type ListOllamaTagsOptions,
  type OllamaModelInfo,
  type OllamaTag,
} from "./ollama-model-info.js";
export {
  DEFAULT_OLLAMA_HOST,
  isOllamaHost,
  normalizeOllamaHost,
  resolveOllamaHost,
} from "./ollama-host.js";
export {
  connectionErrorCode,
  providerErrorsMiddleware,
  translateProviderError,
  withProviderErrors,
  type ExplainedProviderError,
  type ProviderErrorWording,
} from "./provider-errors.js";
export {
  createOpenAIModel,
  DEFAULT_OPENAI_BASE_URL,
  listOpenAIModels,
  type ListedModel,
  type ListOpenAIModelsOptions,
  type ModelCapabilities,
  type OpenAIConnectionOptions,
  type OpenAIModelInfo,
  type OpenAIModelOptions,
} from "./openai/index.js";
export {
  CopilotAuthError,
  createCopilotClient,
  createCopilotModel,
  DEFAULT_COPILOT_CLIENT_ID,
  DEFAULT_COPILOT_MODEL,
  startDeviceFlow,
  type CopilotAuthFailure,
  type CopilotClient,
  type CopilotClientOptions,
  type CopilotEndpoint,
  type CopilotHeaders,
  type CopilotModelCapabilities,
  type CopilotModelFactoryOptions,
  type CopilotModelInfo,
  type CopilotModelOptions,
  type CopilotSession,
  type CopilotTokenOptions,
  type CopilotTokenSource,
  type CopilotUrls,
  type DeviceFlow,
  type DeviceFlowOptions,
  type GithubOAuthToken,
  type ListCopilotModelsOptions,
} from "./copilot/index.js";
export {
  DEFAULT_RETRY_OPTIONS,
  defaultSleep,
  ProviderTimeoutError,
  REDACTED,
  retryMiddleware,
  withRetries,
  type ResolvedRetryOptions,
  type RetryableKind,
  type RetryEvent,
  type RetryOptions,
  type Sleep,
  type WithRetriesOptions,
} from "./retry/index.js";
export {
  createLocalModel,
  DEFAULT_LOCAL_CONTEXT_SIZE,
  DEFAULT_LOCAL_MAX_TOKENS,
  DEFAULT_LOCAL_MODEL_FILE,
  DEFAULT_LOCAL_MODEL_NAME,
  defaultLocalModelFetchCommand,
  DEFAULT_LOCAL_SAMPLING,
  disposeLocalModels,
  loadLocalModel,
  LocalModelUnavailableError,
  type LocalLanguageModel,
  type LocalModelLocation,
  type LocalModelOptions,
  type LocalModelUnavailableReason,
  type LocalSampling,
} from "./local/index.js";
export {
  createCredentialStore,
  CREDENTIAL_ENV_VARS,
  type CredentialSource,
  type CredentialStore,
  type CredentialStoreOptions,
  type KeyringBackend,
} from "./credentials/index.js";
export { isProviderType, PROVIDER_TYPES, type ProviderType } from "./provider-types.js";
// The section's zod schema is in `@xzatoma/providers/config`.
export type { ProviderConfig } from "./provider-config.js";
export {
  createProvider,
  type ModelInfo,
  type ModelListing,
  type Provider,
  type ProviderOptions,
} from "./provider.js";
export { generateAsStream, generateAsStreamMiddleware } from "./generate-as-stream.js";
export { withBearerKey, type BearerKeyOptions } from "./bearer-fetch.js";
