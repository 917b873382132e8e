/**
 * What the runtime needs of the configuration besides its schema: its type, the modes, and
 * the approval policy it gives. No zod here: the schema (`config-schema.ts`) is loaded only
 * to report a problem, by the generator of the configuration reader, and by embedders who
 * import `@xzatoma/runtime/config`.
 */
import { approvalPolicyFromLegacy, type ApprovalPolicy } from "@xzatoma/safety";
import type { ConfigFileShape } from "./config-schema.js";

/** `agent.terminal.default_mode`, as the config file spells it. */
export const TERMINAL_MODES = ["interactive", "restricted_autonomous", "full_autonomous"] as const;

/**
 * The configuration a runtime is built from: the file's shape after defaults, with the data
 * directory and the history database resolved to absolute paths.
 */
export type RuntimeConfig = ConfigFileShape & {
  readonly persistence: ConfigFileShape["persistence"] & {
    readonly data_dir: string;
    readonly db_path: string;
  };
};

/**
 * Keys whose values are paths: `~` is expanded and relative paths are made absolute. Generated
 * from the schema's `resolvedPath()` keys.
 */
export { PATH_KEYS } from "./config-reader.generated.js";

/**
 * The approval policy where a person is present: `agent.approval_policy`, or what the
 * deprecated `agent.terminal.default_mode` and `agent.chat.default_safety` map to.
 */
export function approvalPolicyOf(config: RuntimeConfig): ApprovalPolicy {
  return (
    config.agent.approval_policy ??
    approvalPolicyFromLegacy({
      executionMode: executionModeOf(config.agent.terminal.default_mode),
      safetyMode: config.agent.chat.default_safety,
    })
  );
}

/** `agent.terminal.default_mode` as the old execution modes were named. */
export function executionModeOf(
  mode: RuntimeConfig["agent"]["terminal"]["default_mode"],
): "interactive" | "restricted" | "full" {
  switch (mode) {
    case "interactive":
      return "interactive";
    case "restricted_autonomous":
      return "restricted";
    case "full_autonomous":
      return "full";
  }
}
