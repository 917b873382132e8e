import { discoverSkills, type SkillDiscovery } from "./discover-skills.js";
import type { Skill } from "./skill-file.js";
import { openTrustStore } from "./skill-trust.js";

/** The skills of one session, split by trust. */
export interface SessionSkills extends SkillDiscovery {
  /** The skills the model is offered: the user's, and the project's a person trusted. */
  readonly offered: readonly Skill[];
  /** Project skills no person trusted in this content: never offered. */
  readonly untrusted: readonly Skill[];
}

/**
 * Discovers the skills and keeps the ones a session may use. A project skill steers the
 * agent as AGENTS.md does but arrives with whatever repository was cloned, so it is offered
 * only when a person trusted this content of it (the CLI's `skills trust NAME`), in chat and
 * unattended runs alike.
 *
 * @example
 * const { offered, untrusted } = loadSessionSkills({ workspace, homeDir, dataDir });
 */
export function loadSessionSkills(options: {
  workspace: string;
  homeDir: string;
  dataDir: string;
}): SessionSkills {
  const discovery = discoverSkills(options);
  const trust = openTrustStore(options.dataDir);
  const offered: Skill[] = [];
  const untrusted: Skill[] = [];
  for (const skill of discovery.skills) {
    if (skill.scope === "user" || trust.isTrusted(skill)) offered.push(skill);
    else untrusted.push(skill);
  }
  return { ...discovery, offered, untrusted };
}
