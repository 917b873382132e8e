// `xzatoma chat`: its options and help; the session itself is in chat.ts.
import type { Command } from "commander";
import type { CommandContext } from "./command-action.js";
import { agentOptions, approvalOption } from "./command-options.js";

export function registerChatCommand(program: Command, { act }: CommandContext): void {
  const chat = agentOptions(
    program
      .command("chat")
      .description("Chat with the agent in an interactive session (/help inside for commands).")
      .option(
        "--resume [id]",
        "continue a saved conversation (see 'xzatoma history list'); without an id, pick one of this project's",
      )
      .option("--continue", "continue this project's newest conversation")
      .option(
        "--fork",
        "with --resume or --continue: continue in a new branch of that conversation; the original stays as it is",
      )
      .option("-v, --verbose", "show the detailed trace live (it always goes to the log file)"),
  );
  approvalOption(chat).action(
    act(async (call) => {
      const { chatCommand } = await import("./chat.js");
      return chatCommand(call.options as Parameters<typeof chatCommand>[0], call.source);
    }),
  );
}
