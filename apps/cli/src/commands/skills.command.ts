// `xzatoma skills list|trust`: their options and help; the commands are in skills.ts.
import type { Command } from "commander";
import type { CommandContext } from "./command-action.js";

export function registerSkillsCommand(program: Command, { act }: CommandContext): void {
  const skills = program
    .command("skills")
    .description("Agent Skills (SKILL.md) of the user and the project.");
  skills
    .command("list")
    .description("List the skills a session finds here, whether each is offered, and invalid ones.")
    .option("-w, --workspace <dir>", "the project (default: the current directory)")
    .option("--json", "JSON output")
    .action(
      act(async (call) => {
        const { skillsList } = await import("./skills.js");
        return skillsList(call.options as Parameters<typeof skillsList>[0], call.source);
      }),
    );
  skills
    .command("trust <name>")
    .description("Trust a project skill as it is now (a change makes it untrusted again).")
    .option("-w, --workspace <dir>", "the project (default: the current directory)")
    .action(
      act(async (call) => {
        const { skillsTrust } = await import("./skills.js");
        return skillsTrust(
          String(call.arg),
          call.options as Parameters<typeof skillsTrust>[1],
          call.source,
        );
      }),
    );
}
