import {
  Command,
  CommanderError,
  InvalidArgumentError as CommanderInvalidArgument,
} from "commander";
import { ExitCode } from "./exit-codes.js";
import { UsageError } from "./usage-error.js";
import { version } from "./version.js";

function positiveInteger(flag: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1) {
      throw new CommanderInvalidArgument(
        `${flag} must be a positive whole number, got '${value}'.`,
      );
    }
    return number;
  };
}

/** Builds the command tree. Command modules load only when their command runs. */
function createProgram(setExitCode: (code: number) => void): Command {
  const program = new Command("xzatoma")
    .description(
      "An autonomous AI agent for the terminal: give it a goal, it uses tools to reach it.",
    )
    .version(`xzatoma ${version}`, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  program
    .command("run")
    .description(
      "Run the agent once on a prompt and print its answer (no questions asked: read-only tools only).",
    )
    .requiredOption("-p, --prompt <text>", "what the agent should do")
    .option("--json", "print the event stream as JSON lines instead of text")
    .option("--provider <name>", "model provider (supported: ollama)", "ollama")
    .option("-m, --model <name>", "model name (default: llama3.2:latest)")
    .option("--host <url>", "Ollama server URL (default: OLLAMA_HOST, then http://localhost:11434)")
    .option("-w, --workspace <dir>", "directory the tools may use (default: the current directory)")
    .option(
      "--max-turns <n>",
      "stop after this many model requests (default 50)",
      positiveInteger("--max-turns"),
    )
    .option(
      "--max-tool-calls <n>",
      "stop after this many tool calls (default 200)",
      positiveInteger("--max-tool-calls"),
    )
    .option(
      "--timeout <seconds>",
      "stop after this many seconds (default 300)",
      positiveInteger("--timeout"),
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 answered, 1 failed or stopped by a limit, 2 usage error, 130 interrupted.\n" +
        'Example: xzatoma run --prompt "Summarise README.md"',
    )
    .action(async (options: Record<string, unknown>) => {
      const { runCommand } = await import("./commands/run.js");
      setExitCode(await runCommand(options));
    });

  return program;
}

/**
 * Runs the `xzatoma` command line and resolves with the exit code.
 * Nothing is printed to stdout except what the command produces.
 */
export async function main(argv: readonly string[]): Promise<number> {
  // A closed pipe (`xzatoma run ... | head`) ends the output, not the process with a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? ExitCode.ok);
      throw error;
    });
  }
  let exitCode: number = ExitCode.ok;
  const program = createProgram((code) => (exitCode = code));
  if (argv.length === 0) {
    process.stderr.write(program.helpInformation());
    process.stderr.write("\nerror: no command given; try 'xzatoma run --prompt \"...\"'\n");
    return ExitCode.usage;
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander; they exit 0.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n`);
      return ExitCode.usage;
    }
    throw error;
  }
}
