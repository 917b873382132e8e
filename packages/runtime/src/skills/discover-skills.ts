import { readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { readRootFile, realDirectory } from "./read-root-file.js";
import { parseSkillFile, type Skill, type SkillProblem } from "./skill-file.js";
import { skillRoots, type SkillRoot } from "./skill-roots.js";

/** The largest `SKILL.md` read: 256 KiB. */
export const SKILL_FILE_MAX_BYTES = 256 * 1024;

/** What {@link discoverSkills} found. */
export interface SkillDiscovery {
  /** One skill per name, the winner of shadowing, sorted by name. */
  readonly skills: readonly Skill[];
  /** Skills with the same name as a winner, in a root that loses. */
  readonly shadowed: readonly Skill[];
  /** Invalid skills: the file, the field and what is wrong. */
  readonly problems: readonly SkillProblem[];
}

/**
 * Finds the skills of the user's and the project's roots (see `skillRoots`): every
 * `<root>/<name>/SKILL.md`. Each file is read as text and never run. A project skill whose
 * real path leaves its project directory (a link to elsewhere) is a problem, not a skill.
 *
 * @example
 * const { skills, problems } = discoverSkills({ workspace, homeDir: os.homedir() });
 */
export function discoverSkills(options: {
  workspace: string;
  homeDir: string;
  roots?: readonly SkillRoot[];
}): SkillDiscovery {
  const skills = new Map<string, Skill>();
  const shadowed: Skill[] = [];
  const problems: SkillProblem[] = [];
  const seenFiles = new Set<string>();
  for (const root of options.roots ?? skillRoots(options)) {
    const directory = realDirectory(root.directory);
    if (!directory) continue;
    const confine = root.confine ? realDirectory(root.confine) : undefined;
    let entries: string[];
    try {
      entries = readdirSync(directory).sort();
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.startsWith(".")) continue;
      const candidate = path.join(directory, entry, "SKILL.md");
      // The same file reached through two roots (a link) is one skill.
      let real: string;
      try {
        real = realpathSync(candidate);
      } catch {
        continue; // No SKILL.md in this directory: not a skill.
      }
      if (seenFiles.has(real)) continue;
      seenFiles.add(real);
      const read = readRootFile(candidate, root, confine, {
        maxBytes: SKILL_FILE_MAX_BYTES,
        outsideMessage: "leads outside the project directory; a project skill must live in it",
      });
      if (read === undefined) continue;
      if ("problem" in read) {
        problems.push(read.problem);
        continue;
      }
      const parsed = parseSkillFile(read.bytes.toString("utf8"), {
        file: read.file,
        directory: path.join(directory, entry),
        scope: root.scope,
        sha256: read.sha256,
      });
      if ("problem" in parsed) {
        problems.push(parsed.problem);
        continue;
      }
      if (skills.has(parsed.skill.name)) shadowed.push(parsed.skill);
      else skills.set(parsed.skill.name, parsed.skill);
    }
  }
  return {
    skills: [...skills.values()].sort((a, b) => a.name.localeCompare(b.name)),
    shadowed,
    problems,
  };
}
