export {
  assistantMessage,
  systemMessage,
  toolMessage,
  userMessage,
  type AssistantMessage,
  type Message,
  type SystemMessage,
  type ToolCall,
  type ToolMessage,
  type UserMessage,
} from "./message.js";
export {
  CHARACTERS_PER_TOKEN,
  estimateMessageTokens,
  estimateMessagesTokens,
  estimateTextTokens,
  TOKENS_PER_CJK_CHARACTER,
} from "./estimate-tokens.js";
export {
  countMessageTokens,
  createHeuristicCounter,
  createTokenCounter,
  HEURISTIC_TOKENIZER,
  MESSAGE_OVERHEAD_TOKENS,
  O200K_TOKENIZER,
  usesO200kTokenizer,
  type TokenCounter,
} from "./token-counter.js";
export {
  CONVERSATION_DEFAULTS,
  resolveConversationOptions,
  type ConversationOptions,
  type KeptTool,
  type ResolvedConversationOptions,
} from "./options.js";
export {
  createConversation,
  type AppendOptions,
  type CompactOptions,
  type Conversation,
  type ConversationEntry,
  type ConversationUpdate,
  type ReportedUsage,
} from "./conversation.js";
export type { PruneReport } from "./prune.js";
export {
  completeSummary,
  missingFacts,
  openStepsOf,
  type CompletedSummary,
  type SummaryFacts,
} from "./summary-facts.js";
export { FILE_CHANGING_TOOLS } from "./summary.js";
export type { ContextLevel, ContextStatus, ContextStatusChange } from "./status.js";
export { PATH_ARGUMENTS, pathsInToolInput } from "./tool-paths.js";
export { ConversationFormatError } from "./errors.js";
export {
  SERIALIZED_CONVERSATION_VERSION,
  type SerializedConversation,
  type SerializedEntry,
  type SerializedSummary,
} from "./serialize.js";
export { restoreConversation } from "./restore.js";
