// Regenerates src/gitleaks-rules.generated.ts from the gitleaks ruleset
// (config/gitleaks.toml of github.com/gitleaks/gitleaks), translating every Go RE2
// pattern into JavaScript and recording the upstream version and commit.
//
//   node update-gitleaks-rules.ts --ref v8.30.1
//       downloads the ruleset of that tag and resolves its commit
//   node update-gitleaks-rules.ts --ref v8.30.1 --commit <sha> --file gitleaks.toml
//       uses a copy already on disk (offline)
//
// Run from packages/redaction, then `pnpm test` and `node ../../bench/redaction.ts`: the
// tests pin what must still be found and what must be left alone, the bench that no
// new rule is slow on adversarial input. Node runs this file directly (type stripping).
//
// What changes on the way, and why (see also the README's "Redaction"):
// - patterns are translated (re2-to-js.ts): scoped flags, POSIX classes, RE2's ASCII \s;
//   unbounded repetitions are capped at MAX_REPEAT;
// - the leading lazy `[\w.-]{0,50}?` of the generic rules is dropped (it only moves where
//   a match starts, and costs a backtracking engine 50 to 2,500 tries per character);
// - the closing context most rules share is widened (GITLEAKS_TERMINATOR);
// - rules that need a file name, and the rules in EXCLUDED, are left out.
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { registerHooks } from "node:module";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parse } from "smol-toml";
import type * as Translator from "./src/re2-to-js.ts";
import type { GitleaksAllowlist, GitleaksRule, GitleaksRuleset } from "./src/gitleaks-rule.ts";

// The translator's sources import each other as "./x.js", as the package's sources do:
// map those to the ".ts" files, which Node runs directly.
registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!specifier.startsWith(".") || !specifier.endsWith(".js")) throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
});
const { translateRe2 } = (await import("./src/re2-to-js.ts")) as typeof Translator;

const REPOSITORY = "gitleaks/gitleaks";
/** Unbounded repetitions are capped here; the longest real token format is well below. */
const MAX_REPEAT = 4096;
/**
 * Rules left out, and why. Rules that only apply to some file names (`path`) are left
 * out without being listed: redaction sees text, never a file name.
 */
const EXCLUDED: Record<string, string> = {
  // Replaced by the PEM block finder of private-key-blocks.ts: the RE2 pattern's lazy
  // scan to the closing line is quadratic in a backtracking engine when an input repeats
  // the opening line without a closing one.
  "private-key": "replaced by findPrivateKeyBlocks (linear)",
  // `curl ... -H "Authorization: ..."` and `curl -u user:password`: the patterns scan every
  // following line lazily (`.*?` over up to six lines) from each `curl`, which is
  // quadratic on adversarial input; the header and `-u` values are caught by the
  // authorization and credential rules of xzatoma-rules.ts.
  "curl-auth-header": "replaced by the authorization rule (linear)",
  "curl-auth-user": "replaced by the user:password rule (linear)",
};

interface TomlAllowlist {
  readonly condition?: string;
  readonly regexTarget?: string;
  readonly regexes?: readonly string[];
  readonly stopwords?: readonly string[];
  readonly paths?: readonly string[];
  readonly commits?: readonly string[];
}

interface TomlRule {
  readonly id: string;
  readonly regex?: string;
  readonly path?: string;
  readonly entropy?: number;
  readonly secretGroup?: number;
  readonly keywords?: readonly string[];
  readonly allowlists?: readonly TomlAllowlist[];
}

interface TomlConfig {
  readonly allowlist?: TomlAllowlist;
  readonly rules: readonly TomlRule[];
}

/**
 * The closing context most gitleaks rules share: a quote, a space, `;`, an escaped
 * newline or the end. A token followed by `,`, `)`, `&` or `<` is as secret, so for
 * redaction it is widened to anything that cannot continue the token.
 */
const GITLEAKS_TERMINATOR = String.raw`(?:[\x60'"\s;]|\\[nr]|$)`;
const WIDENED_TERMINATOR = String.raw`(?:[^\w-]|$)`;

function translate(pattern: string, maxRepeat = MAX_REPEAT) {
  const forRule = maxRepeat === MAX_REPEAT;
  const translation = translateRe2(pattern, { maxRepeat, dropLazyPrefix: forRule });
  // Fail here, not at run time, if the translation is not a valid JavaScript pattern.
  new RegExp(translation.source, `dg${translation.flags}`);
  return {
    pattern: translation.source,
    ...(translation.flags && { flags: translation.flags }),
    groups: translation.groups,
    maxLength: translation.maxLength,
    ...(translation.droppedPrefix && { prefix: translation.droppedPrefix }),
  };
}

/**
 * The allowlist as redaction can use it, or `undefined` when it can never hold for text
 * without a file name or commit (path- or commit-only lists, and `AND` lists with paths).
 */
function convertAllowlist(list: TomlAllowlist): GitleaksAllowlist | undefined {
  const requiresAll = list.condition?.toUpperCase() === "AND";
  const needsLocation = (list.paths?.length ?? 0) > 0 || (list.commits?.length ?? 0) > 0;
  if (requiresAll && needsLocation) return undefined;
  const patterns = (list.regexes ?? []).map((regex) => {
    // Allowlist patterns test one finding, its match or its line: no cap needed.
    const { pattern, flags } = translate(regex, Infinity);
    return flags ? { pattern, flags } : { pattern };
  });
  const stopwords = (list.stopwords ?? []).map((word) => word.toLowerCase());
  if (patterns.length === 0 && stopwords.length === 0) return undefined;
  const target =
    list.regexTarget === "match" || list.regexTarget === "line" ? list.regexTarget : "secret";
  return {
    target,
    requiresAll,
    patterns,
    stopwords: [...new Set(stopwords)].sort(),
  };
}

function convertRule(rule: TomlRule): GitleaksRule | undefined {
  if (rule.regex === undefined || rule.path !== undefined || rule.id in EXCLUDED) return undefined;
  const allowlists = (rule.allowlists ?? []).flatMap((list) => convertAllowlist(list) ?? []);
  return {
    id: rule.id,
    ...translate(rule.regex.split(GITLEAKS_TERMINATOR).join(WIDENED_TERMINATOR)),
    keywords: [...new Set((rule.keywords ?? []).map((word) => word.toLowerCase()))],
    ...(rule.secretGroup !== undefined && { secretGroup: rule.secretGroup }),
    ...(rule.entropy !== undefined && { entropy: rule.entropy }),
    ...(allowlists.length > 0 && { allowlists }),
  };
}

async function resolveCommit(ref: string): Promise<string> {
  const response = await fetch(`https://api.github.com/repos/${REPOSITORY}/commits/${ref}`, {
    headers: { accept: "application/vnd.github.sha" },
  });
  if (!response.ok) throw new Error(`cannot resolve ${ref}: HTTP ${response.status}`);
  return (await response.text()).trim();
}

async function download(commit: string): Promise<string> {
  const url = `https://raw.githubusercontent.com/${REPOSITORY}/${commit}/config/gitleaks.toml`;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot download ${url}: HTTP ${response.status}`);
  return response.text();
}

async function formatted(source: string, file: string): Promise<string> {
  try {
    const prettier = await import("prettier");
    return await prettier.format(source, {
      ...(await prettier.resolveConfig(file)),
      filepath: file,
    });
  } catch {
    return source; // no prettier installed: the module is valid as it is
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { ref: { type: "string" }, commit: { type: "string" }, file: { type: "string" } },
  });
  if (!values.ref) throw new Error("--ref <gitleaks tag> is required, e.g. --ref v8.30.1");
  if (values.file && !values.commit) throw new Error("--file needs --commit <sha> of that file");
  const commit = values.commit ?? (await resolveCommit(values.ref));
  const toml = values.file ? await readFile(values.file, "utf8") : await download(commit);
  const config = parse(toml) as unknown as TomlConfig;

  const rules = config.rules.flatMap((rule) => convertRule(rule) ?? []);
  const global = config.allowlist ? convertAllowlist(config.allowlist) : undefined;
  const ruleset: GitleaksRuleset = {
    source: { repository: `github.com/${REPOSITORY}`, version: values.ref, commit, license: "MIT" },
    allowlists: global ? [global] : [],
    rules,
  };

  const here = path.dirname(fileURLToPath(import.meta.url));
  const file = path.join(here, "./src/gitleaks-rules.generated.ts");
  const source = `// Generated by update-gitleaks-rules.ts from the gitleaks ruleset; do not edit.
// Source: https://github.com/${REPOSITORY}/blob/${commit}/config/gitleaks.toml (${values.ref})
// The gitleaks rules are Copyright (c) 2019 Zachary Rice, under the MIT License.
// Patterns are translated from Go RE2 to JavaScript; rules that only apply to some file
// names, and the rules listed in the script's EXCLUDED, are left out.
import type { GitleaksRuleset } from "./gitleaks-rule.js";

/** The gitleaks ruleset, ${rules.length} rules. */
export const GITLEAKS_RULESET: GitleaksRuleset = ${JSON.stringify(ruleset, null, 2)};
`;
  writeFileSync(file, await formatted(source, file));
  const skipped = config.rules.length - rules.length;
  console.log(`${rules.length} rules written (${skipped} left out) from ${values.ref} ${commit}`);
}

await main();
