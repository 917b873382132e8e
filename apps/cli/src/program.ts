// The command tree of `xzatoma`: the program's own options and the list of its commands.
// Each command defines its options, help and action in its own commands/<name>.command.ts,
// and its module loads only when it runs.
import { Command } from "commander";
import { registerAgentCommand } from "./commands/agent.command.js";
import { registerAuthCommand } from "./commands/auth.command.js";
import { registerChatCommand } from "./commands/chat.command.js";
import { type CommandContext, commandContext } from "./commands/command-action.js";
import { registerCompletionCommand } from "./commands/completion.js";
import { registerConfigCommand } from "./commands/config.command.js";
import { registerCustomCommandsCommand } from "./commands/custom-commands.command.js";
import { registerEvalCommand } from "./commands/eval.command.js";
import { registerHistoryCommand } from "./commands/history.command.js";
import { registerMcpCommand } from "./commands/mcp.command.js";
import { registerModelsCommand } from "./commands/models.command.js";
import { registerPolicyCommand } from "./commands/policy.command.js";
import { registerReplayCommand } from "./commands/replay.command.js";
import { registerRewindCommand } from "./commands/rewind.command.js";
import { registerRunCommand } from "./commands/run.command.js";
import { registerSkillsCommand } from "./commands/skills.command.js";
import { registerWatchCommand } from "./commands/watch.command.js";
import { version } from "./version.js";

/**
 * The commands by name, in the order `xzatoma --help` lists them. Completion's script is
 * generated, when it runs, from the whole tree built here (commands/completion.ts).
 */
const COMMANDS: readonly (readonly [
  string,
  (program: Command, context: CommandContext) => void,
])[] = [
  ["chat", registerChatCommand],
  ["run", registerRunCommand],
  ["agent", registerAgentCommand],
  ["watch", registerWatchCommand],
  ["eval", registerEvalCommand],
  ["history", registerHistoryCommand],
  ["rewind", registerRewindCommand],
  ["replay", registerReplayCommand],
  ["config", registerConfigCommand],
  ["policy", registerPolicyCommand],
  ["auth", registerAuthCommand],
  ["models", registerModelsCommand],
  ["mcp", registerMcpCommand],
  ["skills", registerSkillsCommand],
  ["commands", registerCustomCommandsCommand],
  ["completion", registerCompletionCommand],
];

/**
 * Builds the command tree. Command modules load only when their command runs. Given the
 * first word of the command line, when it names a command (other than `completion`, which
 * needs the whole tree), only that command is defined: it parses, helps and fails exactly as
 * in the whole tree, without defining the options of fifteen others first (commander checks
 * each new option against the command's others, which is most of a start's time in it).
 */
export function createProgram(setExitCode: (code: number) => void, firstWord?: string): Command {
  const program = new Command("xzatoma")
    .description(
      "An autonomous AI agent for the terminal: give it a goal, it uses tools to reach it.",
    )
    .version(`xzatoma ${version}`, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .option("-c, --config <file>", "configuration file (default: ~/.config/xzatoma/config.yaml)")
    .option(
      "--storage-path <file>",
      "history database (default: history.db in the data directory, ~/.xzatoma)",
    )
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  const context = commandContext(setExitCode);
  const only = COMMANDS.find(([name]) => name === firstWord && name !== "completion");
  for (const [, register] of only ? [only] : COMMANDS) register(program, context);
  return program;
}
