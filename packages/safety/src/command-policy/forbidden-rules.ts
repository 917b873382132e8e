import type { Arg, ArgvContext } from "./context.js";
import { FORBIDDEN_RULES, type ForbiddenRuleData } from "./forbidden-rules.data.js";

/** A forbidden rule ready to match: each position a set of words. */
export interface ForbiddenRule {
  readonly words: readonly ReadonlySet<string>[];
  readonly reason: string;
  /** How the rule is shown: its pattern as written. */
  readonly shown: string;
}

function compile(rule: ForbiddenRuleData): ForbiddenRule {
  const words = rule.pattern.map((word) => new Set(typeof word === "string" ? [word] : word));
  const shown = rule.pattern
    .map((word) => (typeof word === "string" ? word : `{${word.join(",")}}`))
    .join(" ");
  return { words, reason: rule.reason, shown };
}

/** Whether `rule` matches a command whose words are `values`. */
export function matchesRule(rule: ForbiddenRule, values: readonly string[]): boolean {
  return rule.words.every((set, index) => {
    const value = values[index];
    return value !== undefined && set.has(value);
  });
}

/**
 * Compiles rules and checks every one's examples: each `match` must match and each
 * `not_match` must not. A rule whose examples disagree with it throws, so a mistake in the
 * data is found when the policy is created, never by a command that slips through.
 */
export function loadForbiddenRules(
  data: readonly ForbiddenRuleData[] = FORBIDDEN_RULES,
): ForbiddenRule[] {
  return data.map((entry, index) => {
    if (entry.pattern.length === 0 || entry.reason.trim() === "")
      throw new Error(`forbidden rule ${String(index)} has no pattern or no reason`);
    const rule = compile(entry);
    for (const example of entry.match)
      if (!matchesRule(rule, example.split(" ")))
        throw new Error(`forbidden rule '${rule.shown}' does not match its example '${example}'`);
    for (const example of entry.not_match)
      if (matchesRule(rule, example.split(" ")))
        throw new Error(`forbidden rule '${rule.shown}' matches its counter-example '${example}'`);
    return rule;
  });
}

/** Records a forbidden finding when `args` (program normalised as `name`) matches a rule. */
export function checkForbidden(name: string, args: readonly Arg[], ctx: ArgvContext): boolean {
  const values = [name, ...args.slice(1).map((arg) => arg.value)];
  const rule = ctx.policy.forbiddenRules.find((candidate) => matchesRule(candidate, values));
  if (rule === undefined) return false;
  ctx.findings.forbid(`\`${values.join(" ").slice(0, 80)}\` ${rule.reason}; it never runs.`);
  return true;
}
