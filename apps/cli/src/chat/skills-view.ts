import type { CustomCommand, Skill } from "@xzatoma/runtime";

/**
 * The text of `/skills`: each skill the session offers with its description, then each
 * custom command. The REPL escapes it on the way to the terminal (`say`).
 */
export function describeSkills(
  skills: readonly Skill[],
  commands: readonly CustomCommand[],
): string {
  const lines = [
    skills.length === 0
      ? "No skills offered (xzatoma skills list shows untrusted and invalid ones)."
      : `Skills (${skills.length}; $NAME in a message loads one):`,
    ...skills.map((skill) => `  ${skill.name} (${skill.scope}): ${skill.description}`),
    commands.length === 0
      ? "No custom commands (xzatoma commands list)."
      : `Custom commands (${commands.length}; /NAME ARGS runs one):`,
    ...commands.map((command) => `  /${command.name} (${command.scope}): ${command.description}`),
  ];
  return lines.join("\n");
}
