// .gitignore matching as git does it: comments, `!` negation, `/` anchoring, a trailing `/`
// for directories, `**`, escapes, trailing spaces, and no re-including what an excluded
// directory holds. Several files each apply to their own directory, the deepest deciding.
// A repository's .gitignore is untrusted text: its rules are matched by @xzatoma/safety's
// pattern automaton, which never backtracks (a regular expression built from a rule such
// as `**/a/**/a/**/a/**/b` ran for 23 s against one deep path).
import {
  compilePathGlob,
  PatternBudgetError,
  PatternSyntaxError,
  type PathGlob,
} from "@xzatoma/safety";

const SLASH = 0x2f;
/** Directory verdicts remembered per file before the memory is cleared. */
const MAX_REMEMBERED = 4096;

/** One rule of a .gitignore file. */
interface IgnoreRule {
  /** Whether the rule's pattern matches a name or a path (see {@link ruleTest}). */
  readonly matches: (subject: string) => boolean;
  /** `!rule`: re-includes what it matches. */
  readonly negated: boolean;
  /** `rule/`: matches directories only. */
  readonly directoriesOnly: boolean;
  /** A rule without `/` matches the last name of a path, at any depth. */
  readonly nameOnly: boolean;
}

/** What the rules of one file say about a path. */
type Verdict = "ignored" | "included" | undefined;

/** The rules of one .gitignore file and the directory they apply to. */
export interface IgnoreFile {
  /** The directory holding the file, relative to the workspace root ("" for the root). */
  readonly base: string;
  /** The file's text, kept for {@link exemptDirectory}. */
  readonly text: string;
  readonly rules: readonly IgnoreRule[];
  /** Verdicts on directories, relative to `base`, as the walk asks about each parent. */
  readonly directories: Map<string, Verdict>;
}

/** The ignore file of `text` for the directory `base`. */
export function ignoreFile(base: string, text: string): IgnoreFile {
  return { base, text, rules: parseGitignore(text), directories: new Map() };
}

/**
 * Parses .gitignore text into rules. Case matters, as in git on Linux (`core.ignorecase`
 * false). A line git would not understand either (`[z-a]`) is passed over.
 */
export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split("\n")) {
    let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line === "" || line.startsWith("#")) continue;
    // Trailing spaces go, unless a backslash escapes the last one.
    while (line.endsWith(" ") && !line.endsWith("\\ ")) line = line.slice(0, -1);
    const negated = line.startsWith("!");
    if (negated) line = line.slice(1);
    const directoriesOnly = line.endsWith("/");
    if (directoriesOnly) line = line.slice(0, -1);
    if (line === "") continue;
    // A `/` at the start or in the middle anchors the rule to the file's directory;
    // without one it matches the last name at any depth (`**/rule`, whose wildcards
    // cannot read a `/`).
    const nameOnly = !line.includes("/");
    const pattern = nameOnly ? line : line.replace(/^\//, "");
    try {
      rules.push({ matches: ruleTest(pattern), negated, directoriesOnly, nameOnly });
    } catch (error) {
      if (!(error instanceof PatternSyntaxError)) throw error;
    }
  }
  return rules;
}

/** Characters that make a gitignore pattern more than plain text (braces are plain there). */
const WILDCARD = /[*?[\\]/;

/**
 * The test of a rule's pattern. Most rules are a plain name (`node_modules`, `dist`) or `*`
 * and a plain ending (`*.log`): these are compared as strings, which is what the pattern
 * automaton would decide for them (`*` is any run of characters but `/`, empty too). Any
 * other pattern is matched by the automaton, which never backtracks.
 */
export function ruleTest(pattern: string): (subject: string) => boolean {
  if (!WILDCARD.test(pattern)) return (subject) => subject === pattern;
  const ending = pattern.slice(1);
  if (pattern.startsWith("*") && !WILDCARD.test(ending) && !ending.includes("/")) {
    return (subject) => subject.endsWith(ending) && !subject.includes("/");
  }
  const glob: PathGlob = compilePathGlob(pattern, { dot: true, syntax: "gitignore" });
  return (subject) => {
    try {
      return glob.matches(subject);
    } catch (error) {
      // Past the step budget (a huge rule against a huge path): the rule is passed over,
      // as a line git cannot read is.
      if (!(error instanceof PatternBudgetError)) throw error;
      return false;
    }
  };
}

/**
 * `file` with a last rule that re-includes `directory` (relative to the workspace root, inside
 * the file's directory): a walk that starts in an ignored directory named on purpose still
 * applies the file's rules to what is inside, as git would to a directory not ignored. A rule
 * that names the entries themselves (`dir/**`) still ignores them.
 */
export function exemptDirectory(file: IgnoreFile, directory: string): IgnoreFile {
  const local = file.base === "" ? directory : directory.slice(file.base.length + 1);
  const escaped = local.replace(/[\\*?[\]]/g, "\\$&").replace(/ $/, "\\ ");
  return ignoreFile(file.base, `${file.text}\n!/${escaped}/\n`);
}

/** The last rule of `file` that matches decides; undefined when none does. */
function ruleVerdict(file: IgnoreFile, local: string, isDirectory: boolean): Verdict {
  const name = local.slice(local.lastIndexOf("/") + 1);
  for (let index = file.rules.length - 1; index >= 0; index--) {
    const rule = file.rules[index] as IgnoreRule;
    if (rule.directoriesOnly && !isDirectory) continue;
    if (rule.matches(rule.nameOnly ? name : local)) return rule.negated ? "included" : "ignored";
  }
  return undefined;
}

/** What `file` says of a directory, remembered. */
function directoryVerdict(file: IgnoreFile, local: string): Verdict {
  if (file.directories.has(local)) return file.directories.get(local);
  let verdict = parentVerdict(file, local);
  if (verdict !== "ignored") verdict = ruleVerdict(file, local, true);
  if (file.directories.size >= MAX_REMEMBERED) file.directories.clear();
  file.directories.set(local, verdict);
  return verdict;
}

/** "ignored" when `file` excludes a directory above `local`: nothing inside comes back. */
function parentVerdict(file: IgnoreFile, local: string): Verdict {
  const cut = local.lastIndexOf("/");
  return cut === -1
    ? undefined
    : directoryVerdict(file, local.slice(0, cut)) === "ignored"
      ? "ignored"
      : undefined;
}

/**
 * Whether the ignore files (outermost first) ignore `relativePath`; files whose directory
 * does not hold the path are passed over. The deepest file with a rule that matches the
 * path (or one of its parent directories) decides, and in it the last such rule, as in git.
 */
export function isIgnored(
  files: readonly IgnoreFile[],
  relativePath: string,
  isDirectory: boolean,
): boolean {
  for (let fileIndex = files.length - 1; fileIndex >= 0; fileIndex--) {
    const file = files[fileIndex] as IgnoreFile;
    const base = file.base;
    if (
      base !== "" &&
      !(relativePath.startsWith(base) && relativePath.charCodeAt(base.length) === SLASH)
    ) {
      continue;
    }
    const local = base === "" ? relativePath : relativePath.slice(base.length + 1);
    const verdict =
      parentVerdict(file, local) ??
      (isDirectory ? directoryVerdict(file, local) : ruleVerdict(file, local, false));
    if (verdict === "ignored") return true;
    if (verdict === "included") return false;
  }
  return false;
}
