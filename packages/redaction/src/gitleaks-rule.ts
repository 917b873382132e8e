/**
 * The shape of the vendored gitleaks ruleset (`gitleaks-rules.generated.ts`), as written
 * by `scripts/update-gitleaks-rules.ts`: plain data, patterns already in JavaScript syntax.
 */
export interface GitleaksRuleset {
  readonly source: {
    readonly repository: string;
    /** The gitleaks release the rules come from, e.g. `v8.30.1`. */
    readonly version: string;
    readonly commit: string;
    readonly license: string;
  };
  /** gitleaks' global allowlists: a finding they hold for is not a secret. */
  readonly allowlists: readonly GitleaksAllowlist[];
  readonly rules: readonly GitleaksRule[];
}

/** One gitleaks rule. */
export interface GitleaksRule {
  readonly id: string;
  /** The JavaScript pattern source, used with the flags `dg` and {@link flags}. */
  readonly pattern: string;
  /** `"i"` for a case-insensitive pattern. */
  readonly flags?: "i";
  /** Capture groups in `pattern`. */
  readonly groups: number;
  /** The longest text `pattern` can match (unbounded repetitions are capped). */
  readonly maxLength: number;
  /**
   * The lazy prefix dropped from the upstream pattern (`[\w.-]{0,50}?`): up to `max`
   * characters of the class `characters` before a match, which gitleaks counts as part
   * of the match its `match` allowlists test.
   */
  readonly prefix?: { readonly characters: string; readonly max: number };
  /** Lower-case words one of which must be in the text for the rule to run. */
  readonly keywords: readonly string[];
  /** The group that holds the secret. Default: the first group that matched, else all. */
  readonly secretGroup?: number;
  /** The Shannon entropy the secret must exceed. */
  readonly entropy?: number;
  readonly allowlists?: readonly GitleaksAllowlist[];
}

/** A gitleaks allowlist, reduced to what applies to text without a file name. */
export interface GitleaksAllowlist {
  /** What `patterns` are tested on: the secret, the whole match, or the match's line. */
  readonly target: "secret" | "match" | "line";
  /** `true`: the patterns and the stopwords must both hold (gitleaks' `AND`). */
  readonly requiresAll: boolean;
  readonly patterns: readonly { readonly pattern: string; readonly flags?: "i" }[];
  /** Lower-case words; a secret containing one is not a secret. */
  readonly stopwords: readonly string[];
}
