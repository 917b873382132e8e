import semver from "semver";
import { compilePattern, EventFilterError } from "./event-filter.js";

const ACTION = "watcher.generic_match.action";
const NAME = "watcher.generic_match.name";
const VERSION = "watcher.generic_match.version";

/** `watcher.generic_match`: which plans a generic watcher runs. Unset: every plan. */
export interface GenericMatchOptions {
  /**
   * A regular expression searched in the plan's `action`, case-insensitive; a leading `(?-i)`
   * makes it case-sensitive (`(?i)`, `(?m)`, `(?s)` are read too, see {@link compilePattern}).
   */
  readonly action?: string;
  /** The same, for the plan's `name`. */
  readonly name?: string;
  /** A semver range the plan's `version` must satisfy. */
  readonly version?: string;
}

/** The fields of a plan a match looks at. */
export interface MatchablePlan {
  readonly action?: string;
  readonly name?: string;
  readonly version?: string;
}

/** Why a plan is not run, or `undefined` when it matches. */
export type GenericMatch = (plan: MatchablePlan) => string | undefined;

/**
 * Builds the match once, so a bad pattern or range fails when the watcher starts. A
 * configured predicate against a plan that lacks the field does not match.
 */
export function createGenericMatch(options: GenericMatchOptions): GenericMatch {
  const action =
    options.action === undefined ? undefined : compilePattern(ACTION, options.action, true);
  const name = options.name === undefined ? undefined : compilePattern(NAME, options.name, true);
  const range =
    options.version === undefined
      ? undefined
      : (semver.validRange(options.version) ??
        (() => {
          throw new EventFilterError(
            `${VERSION}: '${options.version}' is not a semver range (try '^1.2' or '>=2 <3').`,
            VERSION,
          );
        })());
  return (plan) => {
    if (action) {
      if (plan.action === undefined) return "the plan has no action";
      if (!action.test(plan.action))
        return `action '${plan.action}' does not match ${String(action)}`;
    }
    if (name) {
      if (plan.name === undefined) return "the plan has no name";
      if (!name.test(plan.name)) return `name '${plan.name}' does not match ${String(name)}`;
    }
    if (range !== undefined) {
      if (plan.version === undefined) return "the plan has no version";
      if (semver.valid(plan.version) === null)
        return `version '${plan.version}' is not a semver version`;
      if (!semver.satisfies(plan.version, range))
        return `version '${plan.version}' does not satisfy '${options.version}'`;
    }
    return undefined;
  };
}
