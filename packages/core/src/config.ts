// `@xzatoma/core/config`: the zod schemas of the agent's configuration slice and the field
// builders every package builds its own slice with. Kept out of the main entry, so that a
// program that runs an agent with a configuration it has already read loads no zod for it.
export {
  agentLimitsConfigShape,
  conversationConfigSchema,
  type AgentLimitsConfig,
  type ConversationConfig,
} from "./agent-config.js";
export {
  expectationOf,
  expecting,
  filePath,
  flag,
  fraction,
  fractionOrOff,
  httpUrl,
  isHttpUrlWithoutCredentials,
  isResolvedPath,
  MAX_TIMER_MS,
  MAX_TIMER_SECONDS,
  oneOf,
  portList,
  positiveInteger,
  resolvedPath,
  rulesOf,
  text,
  textList,
  timerMilliseconds,
  timerSeconds,
  toolPackage,
  toolPackageList,
  wholeNumber,
  withRule,
} from "./config-fields.js";
// The generator of the zod-free schema reader's tables: run by builds and tests only.
export { schemaNodeOf } from "./schema-reader/schema-node-of.js";
export {
  mutationsOf,
  READER_PROBES,
  readerAgreement,
  type ReaderAgreement,
} from "./schema-reader/reader-agreement.js";
