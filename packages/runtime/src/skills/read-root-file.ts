import { createHash } from "node:crypto";
import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import type { SkillProblem } from "./skill-file.js";
import type { SkillRoot } from "./skill-roots.js";

/** Whether `child` is `parent` or below it (both real paths). */
export function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** The real path of `directory` when it is one, else undefined. */
export function realDirectory(directory: string): string | undefined {
  try {
    return statSync(directory).isDirectory() ? realpathSync(directory) : undefined;
  } catch {
    return undefined;
  }
}

/** A file of a skill or command root, read. */
export interface RootFile {
  /** Its real path. */
  readonly file: string;
  readonly bytes: Buffer;
  readonly sha256: string;
}

/**
 * Reads one file of a skill or command root as text a person may trust by content: its real
 * path, confined to `confine` for a project root (a link out is a problem, not a file), at
 * most `maxBytes`. Undefined when there is no regular file there; `{ problem }` when it is
 * refused. Never runs anything.
 */
export function readRootFile(
  candidate: string,
  root: SkillRoot,
  confine: string | undefined,
  limits: { readonly maxBytes: number; readonly outsideMessage: string },
): RootFile | { readonly problem: SkillProblem } | undefined {
  try {
    const file = realpathSync(candidate);
    if (root.scope === "project" && (!confine || !isInside(confine, file)))
      return { problem: { file: candidate, field: "file", message: limits.outsideMessage } };
    const stats = statSync(file);
    if (!stats.isFile()) return undefined;
    if (stats.size > limits.maxBytes) {
      return {
        problem: {
          file,
          field: "file",
          message: `has ${stats.size} bytes; at most ${limits.maxBytes}`,
        },
      };
    }
    const bytes = readFileSync(file);
    return { file, bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
  } catch {
    return undefined;
  }
}
