/**
 * A rule across the keys of one configuration section ("critical_threshold is at least
 * warning_threshold"), written without zod so that the configuration read at start-up can
 * apply it too. The section's zod schema applies it through `withRule` of
 * `@xzatoma/core/config`; both see the same function.
 */
export type ConfigRule<T = never> = (value: T) => readonly ConfigRuleIssue[];

/** One way a section breaks a {@link ConfigRule}. */
export interface ConfigRuleIssue {
  /** The key inside the section the problem is reported at; absent: the section itself. */
  readonly path?: readonly (string | number)[];
  readonly message: string;
  /** The message explains itself (it is shown as it is, without "expected ..., got ..."). */
  readonly explained?: boolean;
}
