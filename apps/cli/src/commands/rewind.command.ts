// `xzatoma rewind`: its options, help and exit codes; the rewind itself is in rewind.ts.
import type { Command } from "commander";
import type { CommandContext } from "./command-action.js";
import { positiveInteger } from "./command-options.js";

export function registerRewindCommand(program: Command, { act }: CommandContext): void {
  program
    .command("rewind <id>")
    .description(
      "Put the workspace and/or the conversation back to before a turn; the conversation continues as a fork.",
    )
    .option(
      "--to <turn>",
      "rewind to before this turn (default: the last)",
      positiveInteger("--to"),
    )
    .option("--code-only", "put back the workspace's files only")
    .option("--chat-only", "fork the conversation only; the files stay")
    .option("--dry-run", "say what would change, change nothing")
    .option(
      "--force",
      "overwrite files changed since, keeping a copy of each in the data directory",
    )
    .option("--list", "list the turns and the files each changed")
    .option("--json", "JSON output")
    .addHelpText(
      "after",
      "\nExit codes: 0 done (or --dry-run), 1 a file changed since the turn stopped the rewind (nothing changed) or could not be put back.\nSee docs/explanation/rewind.md.",
    )
    .action(
      act(async (call) => {
        const { rewindCommand } = await import("./rewind.js");
        return rewindCommand(String(call.arg), call.options as Parameters<typeof rewindCommand>[1]);
      }),
    );
}
