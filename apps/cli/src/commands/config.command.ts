// `xzatoma config show|trust|validate|path`: their options and help; the commands are in
// config.ts and config-trust.ts.
import type { Command } from "commander";
import type { CommandContext } from "./command-action.js";
import { approvalOption, configOptions } from "./command-options.js";

export function registerConfigCommand(program: Command, { act }: CommandContext): void {
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
        const { configShow } = await import("./config.js");
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
        const { configTrust } = await import("./config-trust.js");
        return configTrust(call.options as Parameters<typeof configTrust>[0], call.source);
      }),
    );
  config
    .command("validate <file>")
    .description("Check a configuration file and report every problem with its key.")
    .option("--json", "JSON output")
    .action(
      act(async (call) => {
        const { configValidate } = await import("./config.js");
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
        const { configPath } = await import("./config.js");
        return configPath(call.options as Parameters<typeof configPath>[0]);
      }),
    );
}
