import type { CustomCommand } from "../custom-commands/command-file.js";
import type { CommandDiscovery } from "../custom-commands/discover-commands.js";
import { expandCommand, parseInvocation } from "../custom-commands/expand-command.js";
import { fileUnchanged } from "../skills/file-unchanged.js";
import { activateSkill, mentionedSkills } from "../skills/skill-activation.js";
import type { Skill } from "../skills/skill-file.js";

/** What a prompt becomes before the agent reads it. */
export interface ExpandedPrompt {
  /** The prompt, with a custom command expanded and the skills it loads put before it. */
  readonly text: string;
  /** A skill was loaded: the prompt stays in the model's view, as the instructions do. */
  readonly pinInput: boolean;
}

/** What {@link expandPrompt} expands a prompt with. */
export interface PromptExpansionContext {
  /** The custom commands found; undefined when they are off. */
  readonly commands: CommandDiscovery | undefined;
  /** The skills the model is offered. */
  readonly skills: readonly Skill[];
  /** The session's model (a command naming another one is told it is not switched). */
  readonly model: string;
  readonly warn: (message: string) => void;
}

/**
 * Expands a prompt as the person typed it: `/name args` runs a custom command (its prompt,
 * with the arguments put in) when a person trusted it and its file is unchanged, or loads the
 * skill of that name (a skill offered as a command, as over ACP); each `$name` loads that
 * skill. A loaded skill's text goes before the prompt. Whatever is not expanded is said
 * through `warn`, and the prompt goes on as it was typed.
 *
 * @example
 * expandPrompt("/review src", context).text; // the review command's prompt, "src" put in
 */
export function expandPrompt(prompt: string, context: PromptExpansionContext): ExpandedPrompt {
  const { skills } = context;
  const invocation = parseInvocation(prompt);
  const command = invocation
    ? context.commands?.commands.find((candidate) => candidate.name === invocation.name)
    : undefined;
  let text = prompt;
  if (invocation && command) text = expandedCommand(prompt, invocation.args, command, context);
  const invoked =
    invocation && !command ? skills.find((skill) => skill.name === invocation.name) : undefined;
  if (invocation && invoked) text = invocation.args || `Use the skill '${invoked.name}'.`;
  const wanted = mentionedSkills(text, skills).filter((skill) => skill !== invoked);
  const loaded = [...(invoked ? [invoked] : []), ...wanted].flatMap((skill) => {
    try {
      return [activateSkill(skill)];
    } catch (error) {
      context.warn((error as Error).message);
      return [];
    }
  });
  return loaded.length === 0
    ? { text, pinInput: false }
    : { text: `${loaded.join("\n\n")}\n\n${text}`, pinInput: true };
}

/** The command's prompt for `args`, or `prompt` unchanged with a warning saying why. */
function expandedCommand(
  prompt: string,
  args: string,
  command: CustomCommand,
  context: PromptExpansionContext,
): string {
  if (!context.commands?.offered.includes(command)) {
    context.warn(
      `project command '/${command.name}' was not expanded: no person has trusted this content of ${command.file}`,
    );
    return prompt;
  }
  if (!fileUnchanged(command)) {
    context.warn(
      `the command '/${command.name}' changed since the session started (${command.file}) and was not expanded`,
    );
    return prompt;
  }
  const expanded = expandCommand(command, args);
  if (command.model !== undefined && command.model !== context.model) {
    context.warn(
      `the command '/${command.name}' names the model '${command.model}'; it runs with the session's model '${context.model}' (switch with --model or /model)`,
    );
  }
  return expanded;
}
