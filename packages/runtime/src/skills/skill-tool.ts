import { defineTool, toolFailure, toolSuccess, type Tool } from "@xzatoma/core";
import { INPUT_NODES } from "../input-nodes.generated.js";
import { MODEL_INPUT_SCHEMAS } from "../model-input-schemas.generated.js";
import { activateSkill } from "./skill-activation.js";
import type { Skill } from "./skill-file.js";

/** The name of the tool that activates a skill. */
export const SKILL_TOOL_NAME = "skill";

/**
 * The `skill` tool: the model activates one of the offered skills by name and receives its
 * full `SKILL.md` body and the names of the files beside it. Read-only: it reads only the
 * skills the session offers (trusted ones), nothing else.
 *
 * @example
 * registry.register(createSkillTool(offered));
 */
export function createSkillTool(skills: readonly Skill[]): Tool {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  return defineTool({
    name: SKILL_TOOL_NAME,
    description:
      "Loads the full instructions of one of the skills listed in the system prompt. Call it with the skill's name before doing a task the skill fits.",
    modelInputSchema: MODEL_INPUT_SCHEMAS.skill,
    inputNode: INPUT_NODES.skill,
    loadInputSchema: () => import("./skill-input.js").then((module) => module.skillInput),
    access: "read",
    execute: async ({ name }) => {
      const skill = byName.get(name);
      if (!skill) {
        return toolFailure(
          `No skill named '${name}'. Skills: ${[...byName.keys()].join(", ") || "none"}.`,
        );
      }
      try {
        return toolSuccess(activateSkill(skill), { skill: skill.name });
      } catch (error) {
        return toolFailure((error as Error).message);
      }
    },
  }) as Tool;
}
