export {
  createCopilotClient,
  createCopilotModel,
  listCopilotModels,
  type CopilotClient,
  type CopilotClientOptions,
  type CopilotModelFactoryOptions,
  type CopilotModelOptions,
  type ListCopilotModelsOptions,
} from "./copilot.js";
export {
  DEFAULT_COPILOT_CLIENT_ID,
  DEFAULT_COPILOT_HEADERS,
  DEFAULT_COPILOT_MODEL,
  DEFAULT_COPILOT_SCOPE,
  DEFAULT_COPILOT_URLS,
  type CopilotHeaders,
  type CopilotUrls,
} from "./defaults.js";
export {
  startDeviceFlow,
  type DeviceFlow,
  type DeviceFlowOptions,
  type GithubOAuthToken,
} from "./device-flow.js";
export { CopilotAuthError, type CopilotAuthFailure } from "./errors.js";
export { hasImageInput, initiatorOf } from "./initiator.js";
export {
  isUsableCopilotModel,
  normalizeEndpoint,
  parseCopilotModels,
  selectCopilotEndpoint,
  type CopilotEndpoint,
  type CopilotModelCapabilities,
  type CopilotModelInfo,
} from "./models.js";
export {
  createCopilotTokenSource,
  type CopilotSession,
  type CopilotTokenOptions,
  type CopilotTokenSource,
} from "./token.js";
