import type { ConversationStatus } from "./model.js";

/**
 * The status a finished conversation gets for the agent's stop reason (`StopReason` of
 * `@xzatoma/core`): `completed` → `completed`, `aborted` → `interrupted`, `error` →
 * `failed`, any limit (`max-turns`, `timeout`, ...) → `stopped`.
 */
export function statusForStopReason(stopReason: string): Exclude<ConversationStatus, "running"> {
  switch (stopReason) {
    case "completed":
      return "completed";
    case "aborted":
      return "interrupted";
    case "error":
      return "failed";
    default:
      return "stopped";
  }
}
