// .gitignore matching with the `ignore` package (git's rules: comments, `!` negation, `/`
// anchoring, trailing `/` for directories, `**`, escapes, trailing spaces). What is ours:
// several files, each applying to its own directory, the deepest deciding as in git.
import ignore, { type Ignore } from "ignore";

const SLASH = 0x2f;

/** The rules of one .gitignore file and the directory they apply to. */
export interface IgnoreFile {
  /** The directory holding the file, relative to the workspace root ("" for the root). */
  readonly base: string;
  /** The file's text, kept for {@link exemptDirectory}. */
  readonly text: string;
  readonly rules: Ignore;
}

/** The ignore file of `text` for the directory `base`. */
export function ignoreFile(base: string, text: string): IgnoreFile {
  return { base, text, rules: parseGitignore(text) };
}

/** Parses .gitignore text. Case matters, as in git on Linux (`core.ignorecase` false). */
export function parseGitignore(text: string): Ignore {
  return ignore({ ignorecase: false }).add(text);
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
    // `ignore` tells a directory by its trailing slash.
    const verdict = file.rules.test(isDirectory ? `${local}/` : local);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}
