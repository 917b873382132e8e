import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Skill } from "./skill-file.js";

/** At most this many of a skill's other files are named when it is activated. */
const LISTED_FILES = 50;

function filesBeside(skill: Skill): string[] {
  const found: string[] = [];
  const walk = (directory: string, prefix: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= LISTED_FILES || entry.name.startsWith(".")) continue;
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory() && depth < 2)
        walk(path.join(directory, entry.name), relative, depth + 1);
      else if (entry.isFile() && relative !== "SKILL.md") found.push(relative);
    }
  };
  walk(skill.directory, "", 0);
  return found;
}

/**
 * The text an activated skill adds to the conversation: its body and the files beside it.
 * The file is read again and must still be the content that was discovered (and trusted):
 * a skill changed since then is refused with an `Error` saying so.
 *
 * @example
 * const text = activateSkill(skill); // "Skill 'release' (…/SKILL.md):\n…"
 */
export function activateSkill(skill: Skill): string {
  const bytes = readFileSync(skill.file);
  if (createHash("sha256").update(bytes).digest("hex") !== skill.sha256) {
    throw new Error(
      `The skill '${skill.name}' changed since the session started (${skill.file}); it is not used until it is trusted again.`,
    );
  }
  const files = filesBeside(skill);
  const lines = [`Skill '${skill.name}' (${skill.file}):`, skill.body];
  if (skill.allowedTools)
    lines.push("", `Tools this skill expects: ${skill.allowedTools.join(", ")}.`);
  if (files.length > 0) {
    lines.push(
      "",
      `Files beside it in ${skill.directory} (read them with the file tools when the skill refers to them):`,
      ...files.map((file) => `- ${file}`),
    );
  }
  return lines.join("\n");
}

/** `$name` written by the person: the names of the given skills it mentions, in order. */
export function mentionedSkills(prompt: string, skills: readonly Skill[]): Skill[] {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  const found: Skill[] = [];
  for (const match of prompt.matchAll(/(?<![\w$])\$([a-z0-9][a-z0-9-]{0,63})(?![\w-])/g)) {
    const skill = byName.get(match[1] ?? "");
    if (skill && !found.includes(skill)) found.push(skill);
  }
  return found;
}
