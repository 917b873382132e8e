import { walkScript } from "./analyze-script.js";
import { MOVED, type PolicyContext } from "./context.js";
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
}

const FAILURES = {
  "syntax-error": "could not be parsed as bash",
  timeout: "took too long to parse",
  "too-deep": "is nested too deeply to analyse",
} as const;

/**
 * The variables a script starts with: `$0`, `$1`, … when it is run with arguments, and
 * `PWD`, the directory it starts in (null when unknown: the outer script changed directory).
 */
function startEnv(
  positional: readonly (string | null)[],
  cwd: string | null,
  root: string,
): Map<string, string | null> {
  const env = new Map<string, string | null>(
    positional.map((value, index) => [String(index), value]),
  );
  return env.set("PWD", cwd === MOVED ? null : (cwd ?? root));
}

/**
 * Analyses one script text: parses it with tree-sitter-bash and walks the tree. Text a
 * terminal or the parser could see differently from bash (control characters, invisible
 * characters, backslash-newline) never runs directly, and the variants bash could see are
 * analysed too, so what they need still escalates. A parse error, a timeout or too deep a
 * nesting escalates as unanalysed: nobody knows what the text does.
 * `cwd` is the directory the script starts in (null for the workspace root).
 */
export function analyzeText(
  text: string,
  policy: PolicyContext,
  depth: number,
  positional: readonly (string | null)[] = [],
  cwd: string | null = null,
): TextAnalysis {
  const findings = new Findings();
  if (depth > MAX_NESTING) {
    findings.incomplete(
      `The command nests scripts more than ${String(MAX_NESTING)} levels deep, too deep to analyse`,
    );
    return { findings, segments: 0 };
  }
  const variants: string[] = [];
  if (hasControlCharacter(text)) {
    findings.confirm(
      `The command contains a control character (\`${printable(text).slice(0, 80)}\`), which can hide text on a terminal`,
    );
    // eslint-disable-next-line no-control-regex -- control characters are what this replaces
    variants.push(text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "\n"));
  }
  if (hasInvisibleCharacter(text)) {
    findings.confirm(
      `The command contains invisible characters (\`${printable(text).slice(0, 80)}\`)`,
    );
    variants.push(stripInvisible(text));
  }
  if (/\\\r?\n/.test(text)) {
    findings.confirm("The command continues a line with a backslash");
    variants.push(text.replace(/\\\r?\n/g, ""));
  }
  for (const variant of variants)
    findings.merge(analyzeText(variant, policy, depth, positional, cwd).findings);
  const parsed = policy.parser.parse(text, policy.parseTimeoutMs);
  const scope = { policy, findings, depth, env: startEnv(positional, cwd, policy.root) };
  if (parsed.ok) return { findings, segments: walkScript(parsed.root, scope).segments };
  findings.incomplete(`The command ${FAILURES[parsed.failure]}, so what it does is unknown`);
  // What the partial tree shows still counts (a forbidden command, a network program).
  if (parsed.root !== undefined) walkScript(parsed.root, scope);
  return {
    findings,
    segments: parsed.root === undefined ? 0 : countType(parsed.root, "command"),
  };
}
