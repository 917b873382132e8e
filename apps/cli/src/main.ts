import {
  Command,
  CommanderError,
  InvalidArgumentError as CommanderInvalidArgument,
  Option,
} from "commander";
import type { CommandOptionSource } from "./config/index.js";
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

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * True for XZatoma errors (the `Symbol.for("xzatoma.error")` marker). Checked here rather
 * than imported, so `--help` loads no agent package.
 */
function isXzatomaError(value: unknown): value is Error & { code: string } {
  return (
    value instanceof Error &&
    (value as unknown as Record<symbol, unknown>)[Symbol.for("xzatoma.error")] === true
  );
}

/** The options of a command together with the program's global ones, for config precedence. */
function withGlobals(command: Command): CommandOptionSource {
  return {
    opts: () => command.optsWithGlobals(),
    getOptionValueSource: (key) => command.getOptionValueSourceWithGlobals(key),
  };
}

type Action = (...args: unknown[]) => Promise<number>;

/** Adds the options every agent-running command shares. */
function agentOptions(command: Command): Command {
  return command
    .option("-w, --workspace <dir>", "directory the tools work in (default: the current directory)")
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
      new Option("--mode <mode>", "chat mode: planning (read-only tools) or write").choices([
        "planning",
        "write",
      ]),
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
      "--allow-dangerous",
      "full autonomous mode: run commands that would need a yes (blocked ones stay blocked)",
    )
    .option(
      "--no-sandbox",
      "run terminal commands without bubblewrap (the command policy still applies)",
    );
}

/** Builds the command tree. Command modules load only when their command runs. */
function createProgram(setExitCode: (code: number) => void): Command {
  const program = new Command("xzatoma")
    .description(
      "An autonomous AI agent for the terminal: give it a goal, it uses tools to reach it.",
    )
    .version(`xzatoma ${version}`, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .option("-c, --config <file>", "configuration file (default: ~/.config/xzatoma/config.yaml)")
    .option(
      "--storage-path <file>",
      "history database (default: XZATOMA_HISTORY_DB, then ~/.xzatoma/history.db)",
    )
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  const run =
    (load: () => Promise<Action>) =>
    async (...args: unknown[]) => {
      setExitCode(await (await load())(...args));
    };

  agentOptions(
    program
      .command("chat")
      .description("Chat with the agent in an interactive session (/help inside for commands).")
      .option("--resume <id>", "continue a saved conversation (see 'xzatoma history list')")
      .option("-v, --verbose", "show the detailed trace live (it always goes to the log file)"),
  ).action(
    run(async () => {
      const { chatCommand } = await import("./commands/chat.js");
      return async (options, command) =>
        chatCommand(
          { ...(command as Command).optsWithGlobals(), ...(options as object) },
          withGlobals(command as Command),
        );
    }),
  );

  agentOptions(
    program
      .command("run")
      .description(
        "Run the agent once on a prompt or a plan, without asking anyone (restricted autonomous mode).",
      )
      .option("-p, --prompt <text>", "what the agent should do (@mentions are expanded)")
      .option("--plan <file>", "a plan file (.yaml, .yml, .json or .md) to carry out")
      .option("--json", "print the event stream as JSON lines instead of text"),
  )
    .addHelpText(
      "after",
      "\nExit codes: 0 answered, 1 failed, 2 usage error, 3 stopped by a limit, 130 interrupted.\n" +
        'Examples:\n  xzatoma run --prompt "Summarise @README.md"\n  xzatoma run --plan release.yaml --mode write',
    )
    .action(
      run(async () => {
        const { runCommand } = await import("./commands/run.js");
        return async (options, command) =>
          runCommand(
            { ...(command as Command).optsWithGlobals(), ...(options as object) },
            withGlobals(command as Command),
          );
      }),
    );

  const history = program.command("history").description("Saved conversations.");
  history
    .command("list")
    .description("List conversations, newest first.")
    .option("--json", "JSON output")
    .option("--limit <n>", "conversations per page (default 20)", positiveInteger("--limit"))
    .option("--page <n>", "page number (default 1)", positiveInteger("--page"))
    .option("--since <date>", "started on or after this date")
    .option("--until <date>", "started before this date")
    .option("--status <status>", "only this status (repeatable)", collect)
    .action(
      run(async () => {
        const { historyList } = await import("./commands/history.js");
        return async (options, command) =>
          historyList({ ...(command as Command).optsWithGlobals(), ...(options as object) });
      }),
    );
  for (const [name, description] of [
    ["show", "Show a conversation with its tool calls and subagents."],
    ["delete", "Delete a conversation and its subagent conversations."],
  ] as const) {
    history
      .command(`${name} <id>`)
      .description(description)
      .option("--json", "JSON output")
      .action(
        run(async () => {
          const commands = await import("./commands/history.js");
          const action = name === "show" ? commands.historyShow : commands.historyDelete;
          return async (id, options, command) =>
            action(String(id), {
              ...(command as Command).optsWithGlobals(),
              ...(options as object),
            });
        }),
      );
  }
  program
    .command("replay <id>")
    .description(
      "Replay a conversation as it happened: messages, tool calls, pruned parts, subagents.",
    )
    .option("--json", "JSON output")
    .action(
      run(async () => {
        const { historyShow } = await import("./commands/history.js");
        return async (id, options, command) =>
          historyShow(String(id), {
            ...(command as Command).optsWithGlobals(),
            ...(options as object),
          });
      }),
    );

  const config = program.command("config").description("The configuration.");
  config
    .command("show")
    .description("Show the effective configuration and where each value came from.")
    .option("--json", "JSON output")
    .action(
      run(async () => {
        const { configShow } = await import("./commands/config.js");
        return async (options, command) =>
          configShow(
            { ...(command as Command).optsWithGlobals(), ...(options as object) },
            withGlobals(command as Command),
          );
      }),
    );
  config
    .command("validate <file>")
    .description("Check a configuration file and report every problem with its key.")
    .option("--json", "JSON output")
    .action(
      run(async () => {
        const { configValidate } = await import("./commands/config.js");
        return async (file, options) => configValidate(String(file), options as { json?: boolean });
      }),
    );
  config
    .command("path")
    .description("Print the path of the configuration file in use.")
    .action(
      run(async () => {
        const { configPath } = await import("./commands/config.js");
        return async (_options, command) => configPath((command as Command).optsWithGlobals());
      }),
    );

  const policy = program
    .command("policy")
    .description("See what the safety layer decides, without running anything.");
  policy
    .command("check-command <command>")
    .description("The verdict (allow, confirm, block) on a shell command, and why.")
    .addOption(
      new Option("--mode <mode>", "execution mode")
        .choices(["interactive", "restricted", "full"])
        .default("restricted"),
    )
    .option(
      "-w, --workspace <dir>",
      "workspace the command would run in (default: the current directory)",
    )
    .option("--json", "JSON output")
    .action(
      run(async () => {
        const { checkCommandCommand } = await import("./commands/policy-check-command.js");
        return async (text, options) =>
          checkCommandCommand(String(text), options as Record<string, unknown>);
      }),
    );
  policy
    .command("check-url <url>")
    .description(
      "The verdict (allow, confirm, block) on a URL for the fetch tool, and why; resolves the host but never connects.",
    )
    .option("--json", "JSON output")
    .option("--offline", "judge the URL text only, without a DNS lookup")
    .action(
      run(async () => {
        const { checkUrlCommand } = await import("./commands/policy-check-url.js");
        return async (url, options) =>
          checkUrlCommand(String(url), options as Record<string, unknown>);
      }),
    );
  const auth = program
    .command("auth")
    .description("Sign in to model providers; credentials go to the OS keyring.");
  auth
    .command("login [provider]")
    .description(
      "Sign in: copilot (GitHub device flow, the default), openai or ollama (an API key on stdin).",
    )
    .option("--client-id <id>", "GitHub OAuth client id for the device flow")
    .action(
      run(async () => {
        const { authLogin } = await import("./commands/auth.js");
        return async (provider, options) =>
          authLogin(provider as string | undefined, options as { clientId?: string });
      }),
    );
  auth
    .command("logout [provider]")
    .description("Remove the stored credential of a provider (all when none is named).")
    .action(
      run(async () => {
        const { authLogout } = await import("./commands/auth.js");
        return async (provider) => authLogout(provider as string | undefined);
      }),
    );
  auth
    .command("status [provider]")
    .description(
      "Where each provider's credential comes from (environment, keyring), never the credential.",
    )
    .option("--json", "JSON output")
    .action(
      run(async () => {
        const { authStatus } = await import("./commands/auth.js");
        return async (provider, options) =>
          authStatus(provider as string | undefined, options as { json?: boolean });
      }),
    );
  const models = program.command("models").description("The models of the configured provider.");
  models
    .command("list")
    .description("List the models the provider offers.")
    .addOption(
      new Option("--provider <name>", "model provider").choices([
        "ollama",
        "openai",
        "copilot",
        "local",
      ]),
    )
    .option("--host <url>", "Ollama server URL")
    .option("--json", "JSON output")
    .action(
      run(async () => {
        const { modelsList } = await import("./commands/models.js");
        return async (options, command) =>
          modelsList(
            { ...(command as Command).optsWithGlobals(), ...(options as object) },
            withGlobals(command as Command),
          );
      }),
    );
  models
    .command("info <name>")
    .description("Context window, output limit, tool and vision support of one model.")
    .addOption(
      new Option("--provider <name>", "model provider").choices([
        "ollama",
        "openai",
        "copilot",
        "local",
      ]),
    )
    .option("--host <url>", "Ollama server URL")
    .option("--json", "JSON output")
    .action(
      run(async () => {
        const { modelsInfo } = await import("./commands/models.js");
        return async (name, options, command) =>
          modelsInfo(
            String(name),
            { ...(command as Command).optsWithGlobals(), ...(options as object) },
            withGlobals(command as Command),
          );
      }),
    );
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
    process.stderr.write(
      "\nerror: no command given; try 'xzatoma chat' or 'xzatoma run --prompt \"...\"'\n",
    );
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
    if (isXzatomaError(error)) {
      process.stderr.write(`error [${error.code}]: ${error.message}\n`);
      return ExitCode.failure;
    }
    throw error;
  }
}
