// The options several commands share, and the parsers of their values: one definition each,
// so that `--provider` or `--max-turns` reads the same in every command's help.
import { type Command, InvalidArgumentError as CommanderInvalidArgument, Option } from "commander";

/** A parser for an option that takes a whole number of at least 1, its error naming `flag`. */
export function positiveInteger(flag: string) {
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

/** A parser for a repeatable option: each use adds its value to the list. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Adds the options that set configuration keys (see `FLAG_MAPPINGS`). */
export function configOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--provider <name>", "model provider").choices([
        "ollama",
        "openai",
        "copilot",
        "local",
      ]),
    )
    .option("-m, --model <name>", "model name")
    .option("--host <url>", "Ollama server URL (default: OLLAMA_HOST, then http://localhost:11434)")
    .option("--base-url <url>", "OpenAI-compatible server URL (default: OPENAI_BASE_URL)")
    .addOption(
      new Option(
        "--mode <mode>",
        "the tools offered: planning (only tools that read) or write (file changes and commands too)",
      ).choices(["planning", "write"]),
    )
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
    .option(
      "--no-sandbox",
      "run terminal commands without bubblewrap: every command that is not provably read-only then needs a person's yes (refused where nobody is asked)",
    );
}

/** `--approval`, for the commands where a person is present. */
export function approvalOption(command: Command): Command {
  return command.addOption(
    new Option(
      "--approval <policy>",
      "when you are asked: untrusted (before every change), on-escalation (default: only when a call needs what the sandbox withholds), never (refuse those)",
    ).choices(["untrusted", "on-escalation", "never"]),
  );
}

/** Adds the options every agent-running command shares. */
export function agentOptions(command: Command): Command {
  return configOptions(
    command.option(
      "-w, --workspace <dir>",
      "directory the tools work in (default: the current directory)",
    ),
  ).option(
    "--allow-dangerous",
    "in run: load @mentions of secret-looking files and URLs you typed (deprecated for tool calls: commands that do not escalate run in the sandbox unasked, escalations need a person)",
  );
}
