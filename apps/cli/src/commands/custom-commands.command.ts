// `xzatoma commands list|trust`: their options and help; the commands are in
// custom-commands.ts.
import type { Command } from "commander";
import type { CommandContext } from "./command-action.js";

export function registerCustomCommandsCommand(program: Command, { act }: CommandContext): void {
  const commands = program
    .command("commands")
    .description("Custom commands (Markdown prompt files run as /name args).");
  commands
    .command("list")
    .description(
      "List the custom commands a session finds here, whether each may run, and invalid ones.",
    )
    .option("-w, --workspace <dir>", "the project (default: the current directory)")
    .option("--json", "JSON output")
    .action(
      act(async (call) => {
        const { commandsList } = await import("./custom-commands.js");
        return commandsList(call.options as Parameters<typeof commandsList>[0], call.source);
      }),
    );
  commands
    .command("trust <name>")
    .description("Trust a project command as it is now (a change makes it untrusted again).")
    .option("-w, --workspace <dir>", "the project (default: the current directory)")
    .action(
      act(async (call) => {
        const { commandsTrust } = await import("./custom-commands.js");
        return commandsTrust(
          String(call.arg),
          call.options as Parameters<typeof commandsTrust>[1],
          call.source,
        );
      }),
    );
}
