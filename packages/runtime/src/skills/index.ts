export { activateSkill, mentionedSkills } from "./skill-activation.js";
export { SKILL_CATALOG_MAX_BYTES, skillCatalog } from "./skill-catalog.js";
export {
  SKILL_DESCRIPTION_MAX,
  SKILL_NAME,
  parseSkillFile,
  type Skill,
  type SkillProblem,
  type SkillScope,
} from "./skill-file.js";
export { commandRoots, projectDirectories, skillRoots, type SkillRoot } from "./skill-roots.js";
export { createSkillTool, SKILL_TOOL_NAME } from "./skill-tool.js";
export { openTrustStore, TRUST_FILE, type TrustStore, type TrustSubject } from "./skill-trust.js";
export { discoverSkills, SKILL_FILE_MAX_BYTES, type SkillDiscovery } from "./discover-skills.js";
export { loadSessionSkills, type SessionSkills } from "./session-skills.js";
