import { walkScript } from "./analyze-script.js";
import type { PolicyContext } from "./context.js";
import { scanRawText } from "./fallback-scan.js";
import { Findings } from "./findings.js";
import {
  hasControlCharacter,
  hasInvisibleCharacter,
  printable,
  stripInvisible,
} from "./normalize-program.js";
import { countType } from "./syntax-node.js";

/** Scripts inside scripts (`bash -c "bash -c '…'"`) deeper than this are not parsed. */
const MAX_NESTING = 4;

/** The result of analysing one script text. */
export interface TextAnalysis {
  readonly findings: Findings;
  /** Simple commands found. */
  readonly segments: number;
  /** The argv when the text is one simple command of plain words, else null. */
  readonly argv: readonly string[] | null;
}

const FAILURES = {
  "syntax-error": "could not be parsed as bash",
  timeout: "took too long to parse",
  "too-deep": "is nested too deeply to analyse",
} as const;

/**
 * The variables a script starts with: `$0`, `$1`, …, `$@`, `$*`, `$#` when it is run with
 * arguments, and `PWD` when it does not start in the workspace root.
 */
function startEnv(positional: readonly string[], cwd: string | null): Map<string, string> {
  const env = new Map<string, string>(positional.map((value, index) => [String(index), value]));
  if (cwd !== null) env.set("PWD", cwd);
  const rest = positional.slice(1).join(" ");
  env
    .set("@", rest)
    .set("*", rest)
    .set("#", String(Math.max(0, positional.length - 1)));
  return env;
}

/**
 * Analyses one script text: parses it with tree-sitter-bash and walks the tree. Text a
 * terminal or the parser could see differently from bash (control characters, invisible
 * characters, backslash-newline) is never plain, and its variants are checked too. A parse
 * error, timeout or overly deep tree fails closed, with a raw-text scan for blocks.
 * `cwd` is the directory the script starts in (null for the workspace root).
 */
export function analyzeText(
  text: string,
  policy: PolicyContext,
  depth: number,
  embedded: boolean,
  positional: readonly string[] = [],
  cwd: string | null = null,
): TextAnalysis {
  const findings = new Findings();
  if (depth > MAX_NESTING) {
    findings.confirm(
      `The command nests scripts more than ${String(MAX_NESTING)} levels deep; it needs confirmation.`,
    );
    scanRawText(text, policy, depth, findings);
    return { findings, segments: 0, argv: null };
  }
  if (hasControlCharacter(text)) {
    findings.confirm(
      `The command contains a control character (\`${printable(text).slice(0, 80)}\`), which can hide text on a terminal; it needs confirmation.`,
    );
    // eslint-disable-next-line no-control-regex -- control characters are what this replaces
    scanRawText(text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "\n"), policy, depth, findings);
  }
  if (hasInvisibleCharacter(text)) {
    findings.merge(
      analyzeText(stripInvisible(text), policy, depth, embedded, positional, cwd).findings,
      {
        blocksOnly: true,
        note: `The command contains invisible characters (\`${printable(text).slice(0, 80)}\`); it needs confirmation.`,
      },
    );
  }
  if (/\\\r?\n/.test(text)) {
    findings.merge(
      analyzeText(text.replace(/\\\r?\n/g, ""), policy, depth, embedded, positional, cwd).findings,
      {
        blocksOnly: true,
        note: "The command continues a line with a backslash, which the shell joins; it needs confirmation.",
      },
    );
  }
  const parsed = policy.parser.parse(text, policy.parseTimeoutMs);
  const scope = {
    policy,
    findings,
    depth,
    embedded,
    env: startEnv(positional, cwd),
    downloads: new Set<string>(),
  };
  if (parsed.ok) {
    const summary = walkScript(parsed.root, scope);
    return { findings, segments: summary.segments, argv: summary.argv };
  }
  findings.incomplete(
    `The command ${FAILURES[parsed.failure]}, so it fails closed; it needs confirmation.`,
  );
  if (parsed.root !== undefined) {
    const partial = new Findings();
    walkScript(parsed.root, { ...scope, findings: partial });
    findings.merge(partial, { blocksOnly: true });
  }
  scanRawText(text, policy, depth, findings);
  return {
    findings,
    segments: parsed.root === undefined ? 0 : countType(parsed.root, "command"),
    argv: null,
  };
}
