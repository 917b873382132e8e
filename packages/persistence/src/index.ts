export { openHistory, DEFAULT_BUSY_TIMEOUT_MS, type OpenHistoryOptions } from "./open-history.js";
export { openHistoryOnFirstUse } from "./history-on-first-use.js";
export type { History } from "./history.js";
export type { ConversationOutcome, NewConversation } from "./conversations.js";
export type { ConversationProgress, MessageToAppend } from "./messages.js";
export { DEFAULT_PAGE_SIZE, type ConversationPage, type ConversationQuery } from "./queries.js";
export type { EventOutcome, ProcessedEvent, ProcessedEventRecord } from "./event-ledger.js";
export type {
  ConversationRecord,
  ConversationTree,
  ConversationWithMessages,
  StoredMessage,
} from "./records.js";
export {
  CONVERSATION_STATUSES,
  type ConversationStatus,
  type HistoryMessage,
  type MessageRole,
  type StoredToolCall,
  type UsageTotals,
} from "./model.js";
export { statusForStopReason } from "./status.js";
export { toRfc3339 } from "./time.js";
export {
  AmbiguousConversationIdError,
  ConversationNotFoundError,
  HistoryError,
  type HistoryErrorCode,
} from "./errors.js";
export {
  createHistoryRecorder,
  type HistoryRecorder,
  type HistoryRecorderOptions,
} from "./history-recorder.js";
// The section's zod schema is in `@xzatoma/persistence/config`.
export type { PersistenceConfig } from "./persistence-config.js";
export {
  applyRewind,
  checkpointTurns,
  createBlobStore,
  createWorkspaceCheckpoints,
  DEFAULT_CHECKPOINT_MAX_BYTES,
  DEFAULT_CHECKPOINT_MAX_FILE_BYTES,
  describeState,
  planRewind,
  pruneCheckpoints,
  appendCheckpointLines,
  readCheckpointLines,
  type BlobStore,
  type CheckpointLine,
  type CheckpointTurn,
  type FileState,
  type PruneResult,
  type RewindChange,
  type RewindConflict,
  type RewindPlan,
  type RewindResult,
  type WorkspaceCheckpoints,
} from "./checkpoints/index.js";
