/**
 * One function decides whether a tool call runs: the chat mode (which tools exist) and the
 * approval policy (when a person is asked), applied to the tool's own judgement of the
 * call. Modes are read on every decision, so a mode changed mid-session governs the very
 * next call.
 */

/** `planning`: read-only tools only. `write`: every tool. */
export type ChatMode = "planning" | "write";

/**
 * When a person is asked:
 * - `untrusted`: before anything that is not provably read-only (a sandboxed command, a
 *   file change), and before every escalation;
 * - `on-escalation` (the default where a person is present): only before an escalation,
 *   a call that needs what the sandbox and the workspace rules withhold (network, places
 *   outside the workspace, secrets, protected paths, `.git` writes, running unconfined);
 * - `never` (unattended: `run`, the watcher): nobody is asked, and an escalation is
 *   refused with a reason the model can read.
 */
export type ApprovalPolicy = "untrusted" | "on-escalation" | "never";

/** Every {@link ApprovalPolicy}, as the configuration and the `--approval` flag spell them. */
export const APPROVAL_POLICIES = ["untrusted", "on-escalation", "never"] as const;

/** What a tool may do, as the tool declares it. */
export type ApprovalAccess = "read" | "write" | "execute" | "network";
/** The tool's judgement: `allow` runs unasked, `confirm` is an escalation, `block` never runs. */
export type ApprovalVerdict = "allow" | "confirm" | "block";

/** The modes in force. */
export interface ApprovalModes {
  readonly chatMode: ChatMode;
  readonly approvalPolicy: ApprovalPolicy;
}

/** One call to decide. */
export interface ApprovalSubject {
  readonly toolName: string;
  readonly access: ApprovalAccess;
  /** The tool's own judgement of this call. */
  readonly verdict: ApprovalVerdict;
  readonly reason: string;
  /**
   * Only a person's explicit yes may let this call run (set on every escalation); a
   * handler that approves everything cannot stand in for one.
   */
  readonly requiresPerson?: boolean;
  /**
   * The call is provably read-only (a command the policy found `direct`): `untrusted`
   * does not ask about it.
   */
  readonly readOnly?: boolean;
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
  if (subject.verdict === "allow") {
    const changes = subject.access === "write" || subject.access === "execute";
    if (modes.approvalPolicy === "untrusted" && changes && subject.readOnly !== true)
      return { decision: "confirm", reason: subject.reason };
    return { decision: "allow", reason: subject.reason };
  }
  if (modes.approvalPolicy === "never") {
    return {
      decision: "block",
      reason: `${subject.reason} Only a person's yes can allow this, and no one is asked here (approval policy: never); do it another way, or ask the user to do it.`,
    };
  }
  return { decision: "confirm", reason: subject.reason };
}

/** Which tools exist in a chat mode: planning registers read-only and network-read tools only. */
export function isToolAvailable(chatMode: ChatMode, access: ApprovalAccess): boolean {
  return chatMode === "write" || access === "read" || access === "network";
}

/** The settings earlier versions used, which {@link approvalPolicyFromLegacy} maps. */
export interface LegacyModes {
  /** `agent.terminal.default_mode`. */
  readonly executionMode?: "interactive" | "restricted" | "full";
  /** `agent.chat.default_safety` and `/safe`, `/yolo`. */
  readonly safetyMode?: "safe" | "yolo";
}

/**
 * The approval policy the old execution and safety modes map to, where a person is present
 * (chat, an editor). `interactive` asked before every command: `untrusted`. Restricted and
 * full autonomous mode and YOLO ran more or less unasked: now every command that does not
 * escalate runs unasked in the sandbox, and an escalation needs a person in every mode,
 * so they become `on-escalation`. Where nobody is present the policy is `never` whatever
 * the old settings said.
 */
export function approvalPolicyFromLegacy(legacy: LegacyModes): ApprovalPolicy {
  return legacy.executionMode === "interactive" && legacy.safetyMode !== "yolo"
    ? "untrusted"
    : "on-escalation";
}
