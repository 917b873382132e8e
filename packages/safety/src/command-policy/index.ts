/**
 * The command policy of the safety layer: classifies a shell command a model wants to run
 * as `allow`, `confirm` or `block` for restricted autonomous mode.
 */
export { DEFAULT_ALLOWLIST } from "./default-allowlist.js";
export { createCommandPolicy } from "./create-command-policy.js";
export type {
  CommandCheckOptions,
  CommandDecision,
  CommandPolicy,
  CommandPolicyOptions,
  CommandVerdict,
} from "./types.js";
