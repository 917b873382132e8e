// `xzatoma watch`: its options, help and exit codes; the watcher service is in watch.ts.
import type { Command } from "commander";
import type { CommandContext } from "./command-action.js";
import { configOptions } from "./command-options.js";

export function registerWatchCommand(program: Command, { act }: CommandContext): void {
  configOptions(
    program
      .command("watch")
      .description(
        "Run the watcher service in the foreground: consume events from Kafka, run the plans they carry, publish results (the configuration's watcher section).",
      )
      .option("-w, --workspace <dir>", "where plans run (default: the current directory)")
      .option("--dry-run", "read, filter and match, but run and publish nothing"),
  )
    .addHelpText(
      "after",
      "\nExit codes: 0 stopped by Ctrl-C or SIGTERM, 1 failed.\nSee docs/how-to/deploy-the-watcher.md.",
    )
    .action(
      act(async (call) => {
        const { watchCommand } = await import("./watch.js");
        return watchCommand(call.options as Parameters<typeof watchCommand>[0], call.source);
      }),
    );
}
