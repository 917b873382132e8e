import os from "node:os";
import type { RuntimeConfig } from "../config/config-values.js";
import { discoverCommands, type CommandDiscovery } from "../custom-commands/discover-commands.js";
import { loadProjectInstructions, type ProjectInstructions } from "../project-instructions.js";
import type { RuntimeIO } from "../runtime-io.js";
import { skillCatalog } from "../skills/skill-catalog.js";
import type { Skill } from "../skills/skill-file.js";
import { createSystemPrompt } from "../system-prompt.js";
import { loadSessionSkills, type SessionSkills } from "../skills/session-skills.js";
import type { AgentRuntimeOptions } from "./runtime-options.js";

/**
 * The text a session starts from: the project's instructions, its skills and custom
 * commands. {@link baseSystemPrompt} makes the system prompt of them.
 */
export interface SessionContent {
  readonly instructions: ProjectInstructions | undefined;
  /** Undefined when skills and custom commands are off (`skills: false`). */
  readonly skills: SessionSkills | undefined;
  readonly commands: CommandDiscovery | undefined;
}

/**
 * Reads the project instructions (`AGENTS.md`), the skills and the custom commands of a
 * session, warning of each skill or command ignored and each project skill no person has
 * trusted; or takes them from the runtime's template, whose warnings were given when it was
 * read. Skills are text read into the conversation, never run; a project's only once trusted.
 */
export async function loadSessionContent(
  config: RuntimeConfig,
  io: RuntimeIO,
  options: Pick<AgentRuntimeOptions, "skills" | "template">,
  workspace: string,
): Promise<SessionContent> {
  const { template } = options;
  const off = options.skills === false;
  if (template) {
    const { instructions, skills, commands } = template;
    return off
      ? { instructions, skills: undefined, commands: undefined }
      : { instructions, skills, commands };
  }
  const instructions = await loadProjectInstructions(workspace);
  if (off) return { instructions, skills: undefined, commands: undefined };
  const roots = {
    workspace,
    homeDir: options.skills?.homeDir ?? os.homedir(),
    dataDir: config.persistence.data_dir,
  };
  const skills = loadSessionSkills(roots);
  for (const problem of skills.problems) {
    io.warn(`skill ignored: ${problem.file}: ${problem.field} ${problem.message}`);
  }
  for (const skill of skills.untrusted) {
    io.warn(
      `project skill '${skill.name}' is not offered: no person has trusted this content of ${skill.file}`,
    );
  }
  const commands = discoverCommands(roots);
  for (const problem of commands.problems) {
    io.warn(`command ignored: ${problem.file}: ${problem.field} ${problem.message}`);
  }
  return { instructions, skills, commands };
}

/**
 * A runtime's system prompt before what `SessionStart` hooks add: the workspace, what the
 * offered tools imply, the project's instructions, and the catalogue of offered skills.
 */
export function baseSystemPrompt(context: {
  readonly workspace: string;
  /** Every tool the model may be offered, the delegation tools included. */
  readonly toolNames: readonly string[];
  readonly instructions: ProjectInstructions | undefined;
  readonly skills: readonly Skill[];
}): string {
  const catalog = skillCatalog(context.skills);
  const prompt = createSystemPrompt({
    workspace: context.workspace,
    toolNames: context.toolNames,
    ...(context.instructions ? { projectInstructions: context.instructions.text } : {}),
  });
  return catalog ? `${prompt}\n\n${catalog}` : prompt;
}
