// An MCP server for XZatoma's tests, with the tools the reference servers lack: one that ends
// its own process mid-call, one that reports an error, one with a large result and one that
// waits. `stdio-server.ts` serves it over stdio, `http-server.ts` over streamable HTTP.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** The fixture server, not yet connected to a transport. */
export function createFixtureServer(): McpServer {
  const server = new McpServer({ name: "xzatoma-fixture", version: "1.0.0" });
  server.registerTool(
    "crash",
    { description: "Ends the server's process before answering.", inputSchema: {} },
    () => {
      process.stderr.write("fixture: crashing on purpose\n");
      process.exit(3);
    },
  );
  server.registerTool(
    "fail",
    { description: "Always reports an error.", inputSchema: { why: z.string() } },
    ({ why }) => ({ ...text(`failed because ${why}`), isError: true }),
  );
  server.registerTool(
    "big",
    { description: "Returns `bytes` letters.", inputSchema: { bytes: z.number().int() } },
    ({ bytes }) => text("x".repeat(bytes)),
  );
  server.registerTool(
    "sleep",
    {
      description: "Waits `ms` milliseconds, then says so.",
      inputSchema: { ms: z.number().int() },
    },
    async ({ ms }, extra) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        extra.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return text(extra.signal.aborted ? "cancelled" : `slept ${ms} ms`);
    },
  );
  server.registerTool(
    "add",
    {
      description: "Adds two numbers.",
      inputSchema: { a: z.number(), b: z.number() },
    },
    ({ a, b }) => text(String(a + b)),
  );
  return server;
}
