import { createPathGuard, type PathGuard } from "@xzatoma/safety";
import { mkdirSync } from "node:fs";
import path from "node:path";

/** The notes directory: a guard whose root is `<workspace>/<directory>`, created on first use. */
export function createNotesDirectory(workspaceRoot: string, directory: string): PathGuard {
  const workspace = createPathGuard({ root: workspaceRoot });
  const absolute = path.resolve(workspace.root, directory);
  const relative = path.relative(workspace.root, absolute);
  if (relative.startsWith("..") || path.isAbsolute(relative)) {
    throw new Error(`The notes directory '${directory}' must be inside the workspace.`);
  }
  mkdirSync(absolute, { recursive: true });
  return createPathGuard({ root: absolute });
}

/** A note's file name from its title: lowercase words joined by dashes, `.md`. */
export function noteFileName(title: string): string {
  const slug = title
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `${slug === "" ? "note" : slug}.md`;
}
