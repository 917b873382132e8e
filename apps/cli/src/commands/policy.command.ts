// `xzatoma policy check-command|check-url`: their options and help; the commands are in
// policy-check-command.ts and policy-check-url.ts.
import { type Command, Option } from "commander";
import type { CommandContext } from "./command-action.js";

export function registerPolicyCommand(program: Command, { act }: CommandContext): void {
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
        const { checkCommandCommand } = await import("./policy-check-command.js");
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
        const { checkUrlCommand } = await import("./policy-check-url.js");
        return checkUrlCommand(
          String(call.arg),
          call.options as Parameters<typeof checkUrlCommand>[1],
        );
      }),
    );
}
