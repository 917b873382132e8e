// `xzatoma run`: its options, help and exit codes; the run itself is in run.ts.
import type { Command } from "commander";
import type { CommandContext } from "./command-action.js";
import { agentOptions } from "./command-options.js";

export function registerRunCommand(program: Command, { act }: CommandContext): void {
  agentOptions(
    program
      .command("run")
      .description(
        "Run the agent once on a prompt or a plan, without asking anyone (restricted autonomous mode).",
      )
      .argument("[prompt...]", "what the agent should do, as words (or - to read standard input)")
      .option(
        "-p, --prompt <text>",
        "what the agent should do (@mentions are expanded; - reads standard input)",
      )
      .option("--plan <file>", "a plan file (.yaml, .yml, .json or .md) to carry out")
      .option("--json", "print the event stream as JSON lines instead of text")
      .option("-q, --quiet", "print the answer only: no progress, tool lines or summary on stderr")
      .option("--continue", "continue the newest saved conversation with this prompt")
      .option("--resume <id>", "continue a saved conversation (see 'xzatoma history list')")
      .option(
        "--subagents",
        "offer the subagent and parallel_subagent tools (default: agent.subagent.enabled)",
      ),
  )
    .addHelpText(
      "after",
      "\nExit codes: 0 answered, 1 failed, 2 usage error, 3 stopped by a limit, 130 interrupted (143 SIGTERM, 129 SIGHUP).\n" +
        "Without a prompt or a plan, the prompt is read from standard input when it is not a terminal.\n" +
        'Examples:\n  xzatoma run "Summarise @README.md"\n  echo "Summarise @README.md" | xzatoma run\n  xzatoma run --plan examples/plans/release.yaml --mode write',
    )
    .action(
      act(async (call) => {
        const { runCommand } = await import("./run.js");
        const options = call.options as Parameters<typeof runCommand>[0];
        return runCommand(
          call.arg === undefined ? options : { ...options, words: call.arg },
          call.source,
        );
      }),
    );
}
