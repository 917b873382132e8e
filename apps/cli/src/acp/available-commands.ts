import type { AvailableCommand } from "@agentclientprotocol/sdk";
import type { AgentRuntime } from "@xzatoma/runtime";

/**
 * The commands a session offers the editor (`available_commands_update`): each custom
 * command the runtime expands (`/name args`), then each skill it offers (`/skill-name args`
 * loads the skill with the rest as the request). A custom command shadows a skill of the
 * same name, as it does in the runtime.
 */
export function availableCommands(
  runtime: Pick<AgentRuntime, "customCommands" | "skills">,
): AvailableCommand[] {
  const commands: AvailableCommand[] = runtime.customCommands.map((command) => ({
    name: command.name,
    description: command.description,
    input: { hint: "arguments ($ARGUMENTS, $1 to $9)" },
  }));
  const taken = new Set(commands.map((command) => command.name));
  for (const skill of runtime.skills) {
    if (taken.has(skill.name)) continue;
    commands.push({
      name: skill.name,
      description: `Skill: ${skill.description}`,
      input: { hint: "what to do with this skill" },
    });
  }
  return commands;
}
