// `xzatoma models list|info`: their options and help; the commands are in models.ts.
import { type Command, Option } from "commander";
import type { CommandContext } from "./command-action.js";

export function registerModelsCommand(program: Command, { act }: CommandContext): void {
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
        const { modelsList } = await import("./models.js");
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
        const { modelsInfo } = await import("./models.js");
        return modelsInfo(
          String(call.arg),
          call.options as Parameters<typeof modelsInfo>[1],
          call.source,
        );
      }),
    );
}
