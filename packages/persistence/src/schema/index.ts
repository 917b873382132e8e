export { conversations, type ConversationRow } from "./conversations.sql.js";
export { messages, type MessageRow } from "./messages.sql.js";
export { processedEvents } from "./processed-events.sql.js";
