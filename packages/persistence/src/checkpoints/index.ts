export { createBlobStore, type BlobStore } from "./blob-store.js";
export {
  appendCheckpointLines,
  CHECKPOINT_INDEX_VERSION,
  readCheckpointLines,
  type CheckpointLine,
} from "./checkpoint-index.js";
export { describeState, readFileState, sameState, type FileState } from "./file-state.js";
export {
  createWorkspaceCheckpoints,
  DEFAULT_CHECKPOINT_MAX_FILE_BYTES,
  type WorkspaceCheckpoints,
  type WorkspaceCheckpointsOptions,
} from "./workspace-checkpoints.js";
export {
  checkpointTurns,
  planRewind,
  type CheckpointTurn,
  type RewindChange,
  type RewindConflict,
  type RewindPlan,
} from "./rewind-plan.js";
export { applyRewind, type RewindResult } from "./apply-rewind.js";
export {
  DEFAULT_CHECKPOINT_MAX_BYTES,
  pruneCheckpoints,
  type PruneCheckpointsOptions,
  type PruneResult,
} from "./prune-checkpoints.js";
