import { constants } from "node:fs";
import path from "node:path";
import {
  configuredConcern,
  protectionOf,
  strongestConcern,
  type PathEnvironment,
} from "../protected-paths.js";
import { foldName } from "./case-fold.js";
import { touchesGitDirectory } from "./git-directory-shape.js";
import type { PathConcern } from "./path-rules.js";

/** How a change touches a path: its content, its removal, a new directory, a new link. */
export type FileChangeKind = "write" | "delete" | "mkdir" | "symlink";

/** Options of {@link judgeFileChange}. */
export interface FileChangeOptions extends PathEnvironment {
  /** `st_mode` of what is at the path now (file type bits included); absent when nothing is. */
  readonly existingMode?: number;
  /** `st_mode` the change gives the path (the sandbox knows it; the file tools never set `x`). */
  readonly newMode?: number;
  /** Absolute real paths no tool writes, with everything below (XZatoma's own files). */
  readonly protectedPaths?: readonly string[];
  /** Directory listings shared by a batch of paths judged together (a whole tree). */
  readonly listings?: Map<string, Set<string>>;
}

/**
 * Hidden names that no program runs code from, so changing them is an ordinary change.
 * Each is a list of patterns or plain words only: `.gitignore` and its kin (ignore
 * patterns), `.editorconfig` (indentation and charset keys, nothing that names a program
 * or a file), `.mailmap` (names and addresses), `.git-blame-ignore-revs` (commit ids),
 * `.gitkeep`/`.keep` (empty by convention). Formatter configs are not here: `.prettierrc`
 * names plugins by path, which the formatter loads on save.
 */
export const INERT_HIDDEN_NAMES: readonly string[] = [
  ".gitignore",
  ".dockerignore",
  ".npmignore",
  ".prettierignore",
  ".eslintignore",
  ".stylelintignore",
  ".editorconfig",
  ".mailmap",
  ".git-blame-ignore-revs",
  ".gitkeep",
  ".keep",
];

const INERT = new Set(INERT_HIDDEN_NAMES.map(foldName));

const REPORT = "report" as const;

function isExecutableFile(mode: number | undefined): boolean {
  return (
    mode !== undefined && (mode & constants.S_IFMT) === constants.S_IFREG && (mode & 0o111) !== 0
  );
}

/** The hidden component of `relativePath` that makes it hidden, or undefined. */
function hiddenComponent(relativePath: string): string | undefined {
  const parts = relativePath.split(/[\\/]+/).filter((part) => part !== "" && part !== ".");
  for (const [index, part] of parts.entries()) {
    const folded = foldName(part);
    if (!folded.startsWith(".")) continue;
    if (index === parts.length - 1 && INERT.has(folded)) continue;
    return part;
  }
  return undefined;
}

/**
 * The one judgement of a change to the workspace-relative path `relativePath` (with `/`
 * separators) in the workspace at `root`, for every way a file changes: the file tools
 * (write, edit, copy, move, create a directory, delete, an editor's write over ACP) and the
 * sandbox's apply of a command's changes. Returns undefined for an ordinary change, which
 * runs unasked, or the strongest concern:
 *
 * - `never` (no tool, no sandboxed command): XZatoma's own files, version-control
 *   internals, a directory shaped like a git repository, and the paths git resolves from
 *   its configuration (`core.hooksPath`, includes, paths a filter or alias names; a link
 *   above one of them too);
 * - a person's yes, discarded in the sandbox: the named entries (path-rules.ts), a home
 *   directory's startup files when the workspace holds it, and every path when git's
 *   configuration cannot be read;
 * - a person's yes, applied and named in the sandbox's report (`sandbox: "report"`):
 *   hidden paths (a component starting with `.`, outside {@link INERT_HIDDEN_NAMES}) and
 *   executable files, existing or made, which builds make (`.venv`, `node_modules/.bin`,
 *   `target/`) and which other programs run on their own.
 *
 * Names compare with Unicode case folding (`foldName`). Synchronous: reads git's
 * configuration (cached) and the directories on the way (for the repository shape).
 *
 * @example
 * judgeFileChange(root, "src/index.ts", "write");             // undefined
 * judgeFileChange(root, ".github/ISSUE_TEMPLATE.md", "write"); // { protection: "person", sandbox: "report", … }
 * judgeFileChange(root, "run.sh", "write", { existingMode: 0o100755 }); // person
 */
export function judgeFileChange(
  root: string,
  relativePath: string,
  kind: FileChangeKind,
  options: FileChangeOptions = {},
): PathConcern | undefined {
  const absolute = path.join(root, relativePath);
  const named = protectionOf(root, absolute, options.protectedPaths ?? [], options);
  if (named?.protection === "never") return named;
  if (touchesGitDirectory(root, absolute, options.listings)) {
    return {
      protection: "never",
      reason:
        "it would make or change a directory shaped like a git repository, whose config git obeys on its own",
    };
  }
  const link =
    kind === "symlink" ? configuredConcern(root, absolute, options, { link: true }) : undefined;
  if (link?.protection === "never") return link;
  const hidden = hiddenComponent(relativePath);
  const executable = isExecutableFile(options.existingMode) || isExecutableFile(options.newMode);
  return strongestConcern([
    named,
    hidden === undefined
      ? undefined
      : {
          protection: "person",
          sandbox: REPORT,
          reason: `${hidden} is hidden, and hidden files are where programs keep settings and startup code they run on their own`,
        },
    executable
      ? {
          protection: "person",
          sandbox: REPORT,
          reason: `it is an executable file, which other programs and the person run directly`,
        }
      : undefined,
  ]);
}
