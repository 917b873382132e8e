import type { ChatMode, ExecutionMode, SafetyMode } from "@xzatoma/safety";

/**
 * The modes of a session. Mutable on purpose: `/mode`, `/safe` and `/yolo` change them,
 * and the approval handler reads them on every decision, so a change governs the next call.
 */
export interface SessionModes {
  chatMode: ChatMode;
  safetyMode: SafetyMode;
  executionMode: ExecutionMode;
}
