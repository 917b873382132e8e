// `xzatoma agent`: its options and help; the Agent Client Protocol agent is in agent.ts.
import type { Command } from "commander";
import type { CommandContext } from "./command-action.js";
import { approvalOption, configOptions } from "./command-options.js";

export function registerAgentCommand(program: Command, { act }: CommandContext): void {
  approvalOption(
    configOptions(
      program
        .command("agent")
        .description(
          "Run as an Agent Client Protocol agent on standard input and output, for editors such as Zed (docs/how-to/use-in-zed.md).",
        ),
    ),
  )
    .option(
      "--allow-dangerous",
      "deprecated: no effect (commands that do not escalate run in the sandbox unasked; escalations need a person)",
    )
    .action(
      act(async (call) => {
        const { agentCommand } = await import("./agent.js");
        return agentCommand(call.options as Parameters<typeof agentCommand>[0], call.source);
      }),
    );
}
