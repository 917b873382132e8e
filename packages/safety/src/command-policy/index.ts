/**
 * The command policy of the safety layer: decides what happens to a shell command a model
 * wants to run: `direct`, `sandbox`, `escalate` or `forbidden`.
 */
export { DEFAULT_ALLOWLIST } from "./default-allowlist.js";
export { createCommandPolicy } from "./create-command-policy.js";
export { FORBIDDEN_RULES, type ForbiddenRuleData } from "./forbidden-rules.data.js";
export type {
  CommandCheckOptions,
  CommandDecision,
  CommandOutcome,
  CommandPolicy,
  CommandPolicyOptions,
  Escalation,
  EscalationKind,
} from "./types.js";
