import { homedir } from "node:os";
import { loadSessionSkills, openTrustStore, type Skill } from "@xzatoma/runtime";
import type { CommandOptionSource } from "../config/flag-mapping.js";
import { ExitCode } from "../exit-codes.js";
import { toTerminalSafe, toTerminalSafeJson } from "../render/terminal-safe.js";
import { resolveWorkspace } from "../session/prepare-session.js";
import { UsageError } from "../usage-error.js";
import { loadUserConfig } from "./load-user-config.js";

interface SkillsOptions {
  config?: string;
  workspace?: string;
  json?: boolean;
}

async function sessionSkills(options: SkillsOptions, command: CommandOptionSource) {
  const { config } = await loadUserConfig(options, command);
  const dataDir = config.persistence.data_dir;
  const workspace = resolveWorkspace(options.workspace);
  return { dataDir, skills: loadSessionSkills({ workspace, homeDir: homedir(), dataDir }) };
}

function state(skill: Skill, offered: readonly Skill[]): string {
  if (skill.scope === "user") return "user";
  return offered.includes(skill) ? "project, trusted" : "project, NOT trusted";
}

/**
 * `xzatoma skills list [--json]`: the skills a session in the workspace finds, whether each
 * is offered (the user's, and trusted project skills), the ones shadowed by a skill of the
 * same name, and invalid ones with their file and field.
 */
export async function skillsList(
  options: SkillsOptions,
  command: CommandOptionSource,
): Promise<number> {
  const { skills } = await sessionSkills(options, command);
  const entry = (skill: Skill) => ({
    name: skill.name,
    description: skill.description,
    scope: skill.scope,
    offered: skills.offered.includes(skill),
    file: skill.file,
    ...(skill.allowedTools ? { allowedTools: skill.allowedTools } : {}),
  });
  if (options.json) {
    process.stdout.write(
      `${toTerminalSafeJson({
        skills: skills.skills.map(entry),
        shadowed: skills.shadowed.map(entry),
        problems: skills.problems,
      })}\n`,
    );
    return ExitCode.ok;
  }
  if (skills.skills.length === 0) process.stdout.write("No skills found.\n");
  for (const skill of skills.skills) {
    process.stdout.write(
      toTerminalSafe(
        `${skill.name} (${state(skill, skills.offered)}): ${skill.description}\n    ${skill.file}`,
      ) + "\n",
    );
  }
  for (const skill of skills.shadowed) {
    process.stdout.write(`shadowed: ${toTerminalSafe(`${skill.name} ${skill.file}`)}\n`);
  }
  for (const problem of skills.problems) {
    process.stdout.write(
      `invalid: ${toTerminalSafe(`${problem.file}: ${problem.field} ${problem.message}`)}\n`,
    );
  }
  if (skills.untrusted.length > 0) {
    process.stdout.write(
      "Project skills that are NOT trusted are never offered: read them, then 'xzatoma skills trust NAME'.\n",
    );
  }
  return ExitCode.ok;
}

/**
 * `xzatoma skills trust NAME`: remembers the current content of a project skill as trusted
 * (by real path and SHA-256 in the data directory), so sessions offer it until it changes.
 */
export async function skillsTrust(
  name: string,
  options: SkillsOptions,
  command: CommandOptionSource,
): Promise<number> {
  const { dataDir, skills } = await sessionSkills(options, command);
  const skill = skills.skills.find((candidate) => candidate.name === name);
  if (!skill) {
    throw new UsageError(
      `No skill named '${name}' in this workspace; 'xzatoma skills list' shows them.`,
    );
  }
  if (skill.scope === "user") {
    process.stdout.write(
      `${toTerminalSafe(`'${name}' is your own skill (${skill.file})`)}: it needs no trust.\n`,
    );
    return ExitCode.ok;
  }
  openTrustStore(dataDir).trust(skill);
  process.stdout.write(
    `${toTerminalSafe(`Trusted the project skill '${name}' (${skill.file}) as it is now (sha256 ${skill.sha256.slice(0, 12)}…)`)}; a change to the file makes it untrusted again.\n`,
  );
  return ExitCode.ok;
}
