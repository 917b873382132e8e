import type { ApprovalPolicy, ChatMode } from "@xzatoma/safety";

/**
 * The modes of a session. Mutable on purpose: `/mode` and `/approvals` change them, and the
 * approval handler reads them on every decision, so a change governs the next call.
 */
export interface SessionModes {
  chatMode: ChatMode;
  approvalPolicy: ApprovalPolicy;
}
