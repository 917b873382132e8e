/**
 * One function decides whether a tool call runs: the chat mode (which tools exist), the
 * safety mode (ask before dangerous operations, or not) and the execution mode (is a
 * person there to ask, and how much may run unasked), applied to the tool's own
 * judgement of the call. Modes are read on every decision, so a mode changed mid-session
 * governs the very next call.
 */

/** `planning`: read-only tools only. `write`: every tool. */
export type ChatMode = "planning" | "write";
/** `safe`: confirm dangerous operations. `yolo`: do not ask (blocks still hold). */
export type SafetyMode = "safe" | "yolo";
/**
 * `interactive`: a person confirms every command. `restricted`: only plain allowlisted
 * commands run; anything needing a yes is refused with a reason the model can read.
 * `full`: confirmations become allows; blocks stay blocks.
 */
export type ExecutionMode = "interactive" | "restricted" | "full";

/** What a tool may do, as the tool declares it. */
export type ApprovalAccess = "read" | "write" | "execute" | "network";
/** allow / confirm / block. */
export type ApprovalVerdict = "allow" | "confirm" | "block";

/** The modes in force. */
export interface ApprovalModes {
  readonly chatMode: ChatMode;
  readonly safetyMode: SafetyMode;
  readonly executionMode: ExecutionMode;
}

/** One call to decide. */
export interface ApprovalSubject {
  readonly toolName: string;
  readonly access: ApprovalAccess;
  /** The tool's own judgement of this call. */
  readonly verdict: ApprovalVerdict;
  readonly reason: string;
  /**
   * Only a person's explicit yes may let this call run: neither YOLO nor full autonomous
   * mode turns it into an allow (writing files that run code, writing `.git`, sending
   * data after secrets were read). Implies a `confirm` verdict.
   */
  readonly requiresPerson?: boolean;
}

/** The decision, with the reason shown to the person or the model. */
export interface ApprovalOutcome {
  readonly decision: ApprovalVerdict;
  readonly reason: string;
}

/** Decides one call. Pure: the same modes and subject always give the same outcome. */
export function decideApproval(modes: ApprovalModes, subject: ApprovalSubject): ApprovalOutcome {
  if (subject.verdict === "block") return { decision: "block", reason: subject.reason };
  if (modes.chatMode === "planning" && subject.access !== "read" && subject.access !== "network") {
    return {
      decision: "block",
      reason: `${subject.toolName} changes things, and planning mode is read-only; switch to write mode first.`,
    };
  }
  if (subject.requiresPerson) {
    if (modes.executionMode === "interactive")
      return { decision: "confirm", reason: subject.reason };
    return {
      decision: "block",
      reason: `${subject.reason} Only a person's explicit yes can allow this, and no one is asked in ${modes.executionMode} autonomous mode; do it another way, or ask the user to do it.`,
    };
  }
  const wantsPerson =
    subject.verdict === "confirm" ||
    (modes.executionMode === "interactive" && subject.access === "execute");
  if (!wantsPerson) return { decision: "allow", reason: subject.reason };
  if (modes.safetyMode === "yolo")
    return { decision: "allow", reason: `${subject.reason} (YOLO mode: not asked)` };
  switch (modes.executionMode) {
    case "full":
      return { decision: "allow", reason: `${subject.reason} (full autonomous mode)` };
    case "interactive":
      return { decision: "confirm", reason: subject.reason };
    case "restricted":
      return {
        decision: "block",
        reason: `${subject.reason} It needs a person's approval, and restricted autonomous mode has no one to ask; do it another way, or the user can allow it by running in full autonomous mode.`,
      };
  }
}

/** Which tools exist in a chat mode: planning registers read-only and network-read tools only. */
export function isToolAvailable(chatMode: ChatMode, access: ApprovalAccess): boolean {
  return chatMode === "write" || access === "read" || access === "network";
}
