import type { ConfigRuleIssue } from "./config-rule.js";

/** `agent.conversation`: the critical threshold is at least the warning threshold. */
export function criticalAtLeastWarning(value: {
  readonly warning_threshold: number;
  readonly critical_threshold: number;
}): readonly ConfigRuleIssue[] {
  if (value.critical_threshold >= value.warning_threshold) return [];
  return [
    {
      path: ["critical_threshold"],
      explained: true,
      message: `must be at least warning_threshold (${value.warning_threshold}), got ${value.critical_threshold}`,
    },
  ];
}
