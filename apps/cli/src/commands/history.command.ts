// `xzatoma history list|show|delete|export|import`: their options and help; the commands
// are in history.ts and history-export.ts.
import { type Command, Option } from "commander";
import type { CommandContext } from "./command-action.js";
import { collect, positiveInteger } from "./command-options.js";

export function registerHistoryCommand(program: Command, { act }: CommandContext): void {
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
      act(async (call) => {
        const { historyList } = await import("./history.js");
        return historyList(call.options as Parameters<typeof historyList>[0]);
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
        act(async (call) => {
          const { historyDelete, historyShow } = await import("./history.js");
          const action = name === "show" ? historyShow : historyDelete;
          return action(call.arg ?? "", call.options as Parameters<typeof action>[1]);
        }),
      );
  }
  history
    .command("export <id>")
    .description("Export a conversation with its tool calls and subagents, redacted.")
    .addOption(
      new Option("--format <format>", "md, json (docs/reference/conversation-export.md) or html")
        .choices(["md", "json", "html"])
        .default("md"),
    )
    .option("-o, --output <file>", "write to this file instead of standard output")
    .action(
      act(async (call) => {
        const { historyExport } = await import("./history-export.js");
        return historyExport(call.arg ?? "", call.options as Parameters<typeof historyExport>[1]);
      }),
    );
  history
    .command("import <file>")
    .description("Store a conversation exported with --format json, under a new id.")
    .option("--json", "JSON output")
    .action(
      act(async (call) => {
        const { historyImport } = await import("./history-export.js");
        return historyImport(call.arg ?? "", call.options as Parameters<typeof historyImport>[1]);
      }),
    );
}
