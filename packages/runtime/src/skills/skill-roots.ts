import { existsSync } from "node:fs";
import path from "node:path";
import type { SkillScope } from "./skill-file.js";

/** A directory whose subdirectories each hold a `SKILL.md` (or command files). */
export interface SkillRoot {
  readonly directory: string;
  readonly scope: SkillScope;
  /** For a project root: the project directory it belongs to; files must stay inside it. */
  readonly confine?: string;
}

/** The project directories searched, nearest first: the workspace up to its repository root. */
export function projectDirectories(workspace: string): string[] {
  const directories: string[] = [];
  let current = path.resolve(workspace);
  for (;;) {
    directories.push(current);
    if (existsSync(path.join(current, ".git"))) return directories;
    const parent = path.dirname(current);
    // No repository above: only the workspace itself is the project.
    if (parent === current) return [path.resolve(workspace)];
    current = parent;
  }
}

/**
 * The skill roots in the order they win: the user's (`~/.xzatoma/skills`,
 * `~/.agents/skills`), then the project's from the workspace up to the repository root
 * (`.xzatoma/skills`, `.agents/skills`, `.claude/skills` in each). A skill name found in
 * an earlier root shadows the same name in a later one, so a repository never replaces a
 * skill the person installed, and a nearer project directory wins over its parents.
 */
export function skillRoots(options: { workspace: string; homeDir: string }): SkillRoot[] {
  return rootsFor(options, "skills", [".xzatoma", ".agents", ".claude"]);
}

/** The command roots, in the order they win: `~/.xzatoma/commands`, then `.xzatoma/commands` upwards. */
export function commandRoots(options: { workspace: string; homeDir: string }): SkillRoot[] {
  return rootsFor(options, "commands", [".xzatoma"]);
}

function rootsFor(
  options: { workspace: string; homeDir: string },
  leaf: string,
  projectParents: readonly string[],
): SkillRoot[] {
  const user = [".xzatoma", ".agents"]
    .filter((parent) => leaf === "skills" || parent === ".xzatoma")
    .map((parent) => ({
      directory: path.join(options.homeDir, parent, leaf),
      scope: "user" as const,
    }));
  const project = projectDirectories(options.workspace).flatMap((directory) =>
    projectParents.map((parent) => ({
      directory: path.join(directory, parent, leaf),
      scope: "project" as const,
      confine: directory,
    })),
  );
  return [...user, ...project];
}
