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
} from "./estimate-tokens.js";
