import type { Skill } from "./skill-file.js";

/** The most the skill list adds to the system prompt: 8 KiB. */
export const SKILL_CATALOG_MAX_BYTES = 8 * 1024;

/** A description in the list is cut to this many characters. */
const DESCRIPTION_CHARS = 200;

/**
 * The system prompt's list of skills: only each name and description (progressive
 * disclosure: the `skill` tool loads the rest), within `maxBytes`. Skills past the budget
 * are named in a closing line only. Empty when there are no skills.
 *
 * @example
 * const section = skillCatalog(offered);
 * if (section) systemPrompt += `\n\n${section}`;
 */
export function skillCatalog(
  skills: readonly Skill[],
  maxBytes: number = SKILL_CATALOG_MAX_BYTES,
): string {
  if (skills.length === 0) return "";
  const head =
    "Skills (instructions for particular tasks): when one fits the task, call the skill tool with its name to read it first.";
  const lines = [head];
  let bytes = Buffer.byteLength(head);
  const left: string[] = [];
  for (const skill of skills) {
    const description =
      skill.description.length > DESCRIPTION_CHARS
        ? `${skill.description.slice(0, DESCRIPTION_CHARS - 1)}…`
        : skill.description;
    const line = `- ${skill.name}: ${description}`;
    const size = Buffer.byteLength(line) + 1;
    if (left.length > 0 || bytes + size > maxBytes) left.push(skill.name);
    else {
      lines.push(line);
      bytes += size;
    }
  }
  if (left.length > 0) lines.push(`More skills (no description shown): ${left.join(", ")}.`);
  return lines.join("\n");
}
