// The command tree of `xzatoma`: every command, its options and help, each loading its
// module only when it runs.
import { Command, Option } from "commander";
import { registerAgentCommand } from "./commands/agent.command.js";
import { registerChatCommand } from "./commands/chat.command.js";
import { commandContext } from "./commands/command-action.js";
import { approvalOption, configOptions } from "./commands/command-options.js";
import { registerCompletionCommand } from "./commands/completion.js";
import { registerEvalCommand } from "./commands/eval.command.js";
import { registerHistoryCommand } from "./commands/history.command.js";
import { registerReplayCommand } from "./commands/replay.command.js";
import { registerRewindCommand } from "./commands/rewind.command.js";
import { registerRunCommand } from "./commands/run.command.js";
import { registerWatchCommand } from "./commands/watch.command.js";
import { version } from "./version.js";

/** Builds the command tree. Command modules load only when their command runs. */
export function createProgram(setExitCode: (code: number) => void): Command {
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
  const { act } = context;
  registerChatCommand(program, context);
  registerRunCommand(program, context);
  registerAgentCommand(program, context);
  registerWatchCommand(program, context);

  registerEvalCommand(program, context);
  registerHistoryCommand(program, context);
  registerRewindCommand(program, context);
  registerReplayCommand(program, context);

  const config = program.command("config").description("The configuration.");
  approvalOption(
    configOptions(
      config
        .command("show")
        .description(
          "Show the effective configuration and where each value came from; the flags show what they would change.",
        ),
    ),
  )
    .option("--json", "JSON output")
    .option(
      "-w, --workspace <dir>",
      "the project whose .xzatoma/config.yaml is included (default: the current directory)",
    )
    .action(
      act(async (call) => {
        const { configShow } = await import("./commands/config.js");
        return configShow(call.options as Parameters<typeof configShow>[0], call.source);
      }),
    );
  config
    .command("trust")
    .description(
      "Trust the project's .xzatoma/config.yaml as it is now: all its settings apply but the data location, until it changes.",
    )
    .option("-w, --workspace <dir>", "the project (default: the current directory)")
    .action(
      act(async (call) => {
        const { configTrust } = await import("./commands/config-trust.js");
        return configTrust(call.options as Parameters<typeof configTrust>[0], call.source);
      }),
    );
  config
    .command("validate <file>")
    .description("Check a configuration file and report every problem with its key.")
    .option("--json", "JSON output")
    .action(
      act(async (call) => {
        const { configValidate } = await import("./commands/config.js");
        return configValidate(
          String(call.arg),
          call.options as Parameters<typeof configValidate>[1],
        );
      }),
    );
  config
    .command("path")
    .description("Print the path of the configuration file in use.")
    .action(
      act(async (call) => {
        const { configPath } = await import("./commands/config.js");
        return configPath(call.options as Parameters<typeof configPath>[0]);
      }),
    );

  const policy = program
    .command("policy")
    .description("See what the safety layer decides, without running anything.");
  policy
    .command("check-command <command>")
    .description(
      "What happens to a shell command (runs directly, in the sandbox, needs a person, never runs), why, and what each approval policy makes of it.",
    )
    .addOption(
      new Option(
        "--approval <policy>",
        "the approval policy to mark (default: never, as in run)",
      ).choices(["untrusted", "on-escalation", "never"]),
    )
    .addOption(
      new Option("--mode <mode>", "deprecated: the old execution mode; use --approval")
        .choices(["interactive", "restricted", "full"])
        .hideHelp(),
    )
    .option("--no-sandbox", "judge as if there were no sandbox")
    .option(
      "-w, --workspace <dir>",
      "workspace the command would run in (default: the current directory)",
    )
    .option("--json", "JSON output")
    .action(
      act(async (call) => {
        const { checkCommandCommand } = await import("./commands/policy-check-command.js");
        return checkCommandCommand(
          String(call.arg),
          call.options as Parameters<typeof checkCommandCommand>[1],
          call.source,
        );
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
      act(async (call) => {
        const { checkUrlCommand } = await import("./commands/policy-check-url.js");
        return checkUrlCommand(
          String(call.arg),
          call.options as Parameters<typeof checkUrlCommand>[1],
        );
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
      act(async (call) => {
        const { authLogin } = await import("./commands/auth.js");
        return authLogin(call.arg, call.options as Parameters<typeof authLogin>[1]);
      }),
    );
  auth
    .command("logout [provider]")
    .description("Remove the stored credential of a provider (all when none is named).")
    .action(
      act(async (call) => {
        const { authLogout } = await import("./commands/auth.js");
        return authLogout(call.arg);
      }),
    );
  auth
    .command("status [provider]")
    .description(
      "Where each provider's credential comes from (environment, keyring), never the credential.",
    )
    .option("--json", "JSON output")
    .action(
      act(async (call) => {
        const { authStatus } = await import("./commands/auth.js");
        return authStatus(call.arg, call.options as Parameters<typeof authStatus>[1]);
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
      act(async (call) => {
        const { modelsList } = await import("./commands/models.js");
        return modelsList(call.options as Parameters<typeof modelsList>[0], call.source);
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
      act(async (call) => {
        const { modelsInfo } = await import("./commands/models.js");
        return modelsInfo(
          String(call.arg),
          call.options as Parameters<typeof modelsInfo>[1],
          call.source,
        );
      }),
    );
  program
    .command("mcp")
    .description("The configured MCP servers (mcp.servers).")
    .command("list")
    .description("Start every enabled MCP server and list its state and tools.")
    .option("--json", "JSON output")
    .action(
      act(async (call) => {
        const { mcpList } = await import("./commands/mcp.js");
        return mcpList(call.options as Parameters<typeof mcpList>[0], call.source);
      }),
    );
  const skills = program
    .command("skills")
    .description("Agent Skills (SKILL.md) of the user and the project.");
  skills
    .command("list")
    .description("List the skills a session finds here, whether each is offered, and invalid ones.")
    .option("-w, --workspace <dir>", "the project (default: the current directory)")
    .option("--json", "JSON output")
    .action(
      act(async (call) => {
        const { skillsList } = await import("./commands/skills.js");
        return skillsList(call.options as Parameters<typeof skillsList>[0], call.source);
      }),
    );
  skills
    .command("trust <name>")
    .description("Trust a project skill as it is now (a change makes it untrusted again).")
    .option("-w, --workspace <dir>", "the project (default: the current directory)")
    .action(
      act(async (call) => {
        const { skillsTrust } = await import("./commands/skills.js");
        return skillsTrust(
          String(call.arg),
          call.options as Parameters<typeof skillsTrust>[1],
          call.source,
        );
      }),
    );
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
        const { commandsList } = await import("./commands/custom-commands.js");
        return commandsList(call.options as Parameters<typeof commandsList>[0], call.source);
      }),
    );
  commands
    .command("trust <name>")
    .description("Trust a project command as it is now (a change makes it untrusted again).")
    .option("-w, --workspace <dir>", "the project (default: the current directory)")
    .action(
      act(async (call) => {
        const { commandsTrust } = await import("./commands/custom-commands.js");
        return commandsTrust(
          String(call.arg),
          call.options as Parameters<typeof commandsTrust>[1],
          call.source,
        );
      }),
    );
  registerCompletionCommand(program);
  return program;
}
