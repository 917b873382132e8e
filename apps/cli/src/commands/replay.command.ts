// `xzatoma replay`: its options and help; it shows a conversation as `history show` does
// (history.ts).
import type { Command } from "commander";
import type { CommandContext } from "./command-action.js";

export function registerReplayCommand(program: Command, { act }: CommandContext): void {
  program
    .command("replay <id>")
    .description(
      "Replay a conversation as it happened: messages, tool calls, pruned parts, subagents.",
    )
    .option("--json", "JSON output")
    .action(
      act(async (call) => {
        const { historyShow } = await import("./history.js");
        return historyShow(String(call.arg), call.options as Parameters<typeof historyShow>[1]);
      }),
    );
}
