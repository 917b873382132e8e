// `xzatoma mcp list`: its options and help; the command is in mcp.ts.
import type { Command } from "commander";
import type { CommandContext } from "./command-action.js";

export function registerMcpCommand(program: Command, { act }: CommandContext): void {
  program
    .command("mcp")
    .description("The configured MCP servers (mcp.servers).")
    .command("list")
    .description("Start every enabled MCP server and list its state and tools.")
    .option("--json", "JSON output")
    .action(
      act(async (call) => {
        const { mcpList } = await import("./mcp.js");
        return mcpList(call.options as Parameters<typeof mcpList>[0], call.source);
      }),
    );
}
