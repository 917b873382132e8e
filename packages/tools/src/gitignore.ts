import { pathSource } from "./glob-pattern.js";

/** One line of a .gitignore file. */
export interface IgnoreRule {
  readonly regex: RegExp;
  readonly negated: boolean;
  readonly directoriesOnly: boolean;
}

/** The rules of one .gitignore file and the directory they apply to. */
export interface IgnoreFile {
  /** The directory holding the file, relative to the workspace root ("" for the root). */
  readonly base: string;
  readonly rules: readonly IgnoreRule[];
}

function stripTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " " && line[end - 2] !== "\\") end--;
  return line.slice(0, end);
}

/** Parses .gitignore text as git does: comments, `!` negation, `/` anchoring, trailing `/`. */
export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split("\n")) {
    let line = stripTrailingSpaces(raw.endsWith("\r") ? raw.slice(0, -1) : raw);
    if (line === "" || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    if (negated) line = line.slice(1);
    const directoriesOnly = line.endsWith("/");
    line = line.replace(/\/+$/, "");
    if (line === "") continue;
    // A slash at the start or in the middle anchors the rule to the file's directory.
    const anchored = line.includes("/");
    const pattern = anchored ? line.replace(/^\/+/, "") : `**/${line}`;
    try {
      rules.push({
        regex: new RegExp(`^(?:${pathSource(pattern, true)})$`),
        negated,
        directoriesOnly,
      });
    } catch {
      // Git skips a rule it cannot parse; so do we.
    }
  }
  return rules;
}

/**
 * Whether the ignore files (outermost first) ignore `relativePath`; files whose directory
 * does not hold the path are passed over. The deepest file that
 * has a matching rule decides, and in it the last matching rule, as in git.
 */
export function isIgnored(
  files: readonly IgnoreFile[],
  relativePath: string,
  isDirectory: boolean,
): boolean {
  for (let fileIndex = files.length - 1; fileIndex >= 0; fileIndex--) {
    const file = files[fileIndex] as IgnoreFile;
    if (file.base !== "" && !relativePath.startsWith(`${file.base}/`)) continue;
    const local = file.base === "" ? relativePath : relativePath.slice(file.base.length + 1);
    for (let ruleIndex = file.rules.length - 1; ruleIndex >= 0; ruleIndex--) {
      const rule = file.rules[ruleIndex] as IgnoreRule;
      if (rule.directoriesOnly && !isDirectory) continue;
      if (rule.regex.test(local)) return !rule.negated;
    }
  }
  return false;
}
