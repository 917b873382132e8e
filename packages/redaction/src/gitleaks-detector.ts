import type { GitleaksAllowlist, GitleaksRule, GitleaksRuleset } from "./gitleaks-rule.js";
import { GITLEAKS_RULESET } from "./gitleaks-rules.generated.js";
import type { SecretSpan } from "./secret-span.js";
import { shannonEntropy } from "./shannon-entropy.js";
import { createWordMatcher, type WordMatcher } from "./word-matcher.js";

interface CompiledAllowlist {
  readonly target: GitleaksAllowlist["target"];
  readonly requiresAll: boolean;
  readonly patterns: readonly RegExp[];
  readonly stopwords: WordMatcher | undefined;
}

interface CompiledRule {
  readonly id: string;
  readonly regex: RegExp;
  /** Indices into {@link CompiledRuleset.keywords}. */
  readonly keywords: readonly number[];
  readonly prefix: { readonly characters: RegExp; readonly max: number } | undefined;
  readonly secretGroup: number | undefined;
  readonly entropy: number | undefined;
  readonly allowlists: readonly CompiledAllowlist[];
}

interface CompiledRuleset {
  readonly rules: readonly CompiledRule[];
  /** For each keyword, the indices of the rules it lets run (ascending). */
  readonly rulesOfKeyword: readonly (readonly number[])[];
  /** Rules without keywords, which run on every text (ascending; none in the vendored set). */
  readonly unconditional: readonly number[];
  readonly keywords: WordMatcher;
  readonly allowlists: readonly CompiledAllowlist[];
}

/** How much of a long line an allowlist with `target: "line"` sees on each side. */
const LINE_CONTEXT = 512;

/**
 * A matcher built on its first question: the global allowlist's 1,500 stopwords are asked
 * about only when a rule finds a candidate secret, which most texts never hold, and building
 * their automaton is most of the ruleset's compile time.
 */
function lazyWordMatcher(words: readonly string[]): WordMatcher {
  let matcher: WordMatcher | undefined;
  const built = () => (matcher ??= createWordMatcher(words));
  return {
    present: (text) => built().present(text),
    found: (text) => built().found(text),
    matchesAny: (text) => built().matchesAny(text),
  };
}

function compileAllowlist(list: GitleaksAllowlist): CompiledAllowlist {
  return {
    target: list.target,
    requiresAll: list.requiresAll,
    patterns: list.patterns.map(({ pattern, flags }) => new RegExp(pattern, flags ?? "")),
    stopwords: list.stopwords.length > 0 ? lazyWordMatcher(list.stopwords) : undefined,
  };
}

function compileRule(rule: GitleaksRule, keywordIndex: Map<string, number>): CompiledRule {
  return {
    id: rule.id,
    regex: new RegExp(rule.pattern, `dg${rule.flags ?? ""}`),
    keywords: rule.keywords.flatMap((word) => keywordIndex.get(word) ?? []),
    prefix: rule.prefix && { characters: new RegExp(rule.prefix.characters), max: rule.prefix.max },
    secretGroup: rule.secretGroup,
    entropy: rule.entropy,
    allowlists: (rule.allowlists ?? []).map(compileAllowlist),
  };
}

let compiled: CompiledRuleset | undefined;

/**
 * The vendored ruleset, compiled on first use (about 20 ms; nothing is compiled on import),
 * and shared: the compiled patterns are immutable (their `lastIndex` is reset per scan).
 */
function compiledRuleset(): CompiledRuleset {
  if (compiled) return compiled;
  const ruleset: GitleaksRuleset = GITLEAKS_RULESET;
  const words = [...new Set(ruleset.rules.flatMap((rule) => rule.keywords))];
  const keywordIndex = new Map(words.map((word, index) => [word, index]));
  const rules = ruleset.rules.map((rule) => compileRule(rule, keywordIndex));
  const rulesOfKeyword = words.map(() => [] as number[]);
  rules.forEach((rule, index) => {
    for (const word of rule.keywords) rulesOfKeyword[word]?.push(index);
  });
  compiled = {
    rules,
    rulesOfKeyword,
    unconditional: rules.flatMap((rule, index) => (rule.keywords.length === 0 ? [index] : [])),
    keywords: createWordMatcher(words),
    allowlists: ruleset.allowlists.map(compileAllowlist),
  };
  return compiled;
}

interface Finding {
  readonly secret: string;
  readonly match: () => string;
  readonly line: () => string;
}

function allowedBy(list: CompiledAllowlist, finding: Finding): boolean {
  const target =
    list.target === "secret"
      ? finding.secret
      : list.target === "match"
        ? finding.match()
        : finding.line();
  const patternHolds = list.patterns.some((pattern) => pattern.test(target));
  const stopwordHolds = list.stopwords?.matchesAny(finding.secret) ?? false;
  if (!list.requiresAll) return patternHolds || stopwordHolds;
  return (list.patterns.length === 0 || patternHolds) && (!list.stopwords || stopwordHolds);
}

/** Where the upstream match starts: before the dropped prefix's characters, if any. */
function upstreamStart(text: string, start: number, rule: CompiledRule): number {
  if (!rule.prefix) return start;
  let from = start;
  while (
    from > 0 &&
    start - from < rule.prefix.max &&
    rule.prefix.characters.test(text.charAt(from - 1))
  )
    from -= 1;
  return from;
}

/** The line of a match, cut to {@link LINE_CONTEXT} characters on each side. */
function lineAround(text: string, start: number, end: number): string {
  // Searched within the window only: a text without newlines must not be scanned per finding.
  const from = Math.max(0, start - LINE_CONTEXT);
  const before = text.slice(from, start);
  const after = text.slice(end, end + LINE_CONTEXT);
  const newlineBefore = before.lastIndexOf("\n");
  const newlineAfter = after.indexOf("\n");
  return (
    before.slice(newlineBefore + 1) +
    text.slice(start, end) +
    (newlineAfter < 0 ? after : after.slice(0, newlineAfter))
  );
}

/** The span of the secret in one match: the rule's group, else the first group that matched. */
function secretSpanOf(match: RegExpExecArray, secretGroup: number | undefined): SecretSpan {
  const indices = match.indices ?? [];
  if (secretGroup !== undefined) {
    const group = indices[secretGroup];
    if (group) return { start: group[0], end: group[1] };
  } else {
    for (let index = 1; index < indices.length; index += 1) {
      const group = indices[index];
      if (group && group[1] > group[0]) return { start: group[0], end: group[1] };
    }
  }
  // gitleaks trims newlines from a whole match before reporting it.
  let start = match.index;
  let end = match.index + match[0].length;
  while (start < end && match.input[start] === "\n") start += 1;
  while (end > start && match.input[end - 1] === "\n") end -= 1;
  return { start, end };
}

/**
 * The secrets the gitleaks rules find in `text`, with gitleaks' filters applied: a rule
 * runs only when one of its keywords is in the text (ASCII case ignored), a secret must
 * pass the rule's entropy threshold, and the global and the rule's allowlists (patterns,
 * stopwords) are honoured.
 */
export function findGitleaksSecrets(text: string): SecretSpan[] {
  const ruleset = compiledRuleset();
  // The rules whose keywords the text holds, in the ruleset's order: most texts hold none, and
  // asking each of the 214 rules about its keywords cost more than the scan itself.
  const candidates = [...ruleset.unconditional];
  for (const word of ruleset.keywords.found(text)) {
    for (const index of ruleset.rulesOfKeyword[word] ?? []) candidates.push(index);
  }
  const spans: SecretSpan[] = [];
  if (candidates.length === 0) return spans;
  const order = candidates.length > 1 ? [...new Set(candidates)].sort((a, b) => a - b) : candidates;
  for (const index of order) {
    const rule = ruleset.rules[index];
    if (rule === undefined) continue;
    const regex = rule.regex;
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match; match = regex.exec(text)) {
      const matchStart = match.index;
      const matchEnd = matchStart + match[0].length;
      if (matchEnd === matchStart) {
        regex.lastIndex += 1;
        continue;
      }
      const span = secretSpanOf(match, rule.secretGroup);
      if (span.end <= span.start) continue;
      const secret = text.slice(span.start, span.end);
      if (rule.entropy !== undefined && shannonEntropy(secret) <= rule.entropy) continue;
      const finding: Finding = {
        secret,
        match: () => text.slice(upstreamStart(text, matchStart, rule), matchEnd),
        line: () => lineAround(text, matchStart, matchEnd),
      };
      if (ruleset.allowlists.some((list) => allowedBy(list, finding))) continue;
      if (rule.allowlists.some((list) => allowedBy(list, finding))) continue;
      spans.push(span);
    }
  }
  return spans;
}
