// `xzatoma auth login|logout|status`: their options and help; the commands are in auth.ts.
import type { Command } from "commander";
import type { CommandContext } from "./command-action.js";

export function registerAuthCommand(program: Command, { act }: CommandContext): void {
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
        const { authLogin } = await import("./auth.js");
        return authLogin(call.arg, call.options as Parameters<typeof authLogin>[1]);
      }),
    );
  auth
    .command("logout [provider]")
    .description("Remove the stored credential of a provider (all when none is named).")
    .action(
      act(async (call) => {
        const { authLogout } = await import("./auth.js");
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
        const { authStatus } = await import("./auth.js");
        return authStatus(call.arg, call.options as Parameters<typeof authStatus>[1]);
      }),
    );
}
