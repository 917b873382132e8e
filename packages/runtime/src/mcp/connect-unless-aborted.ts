import type { Tool } from "@xzatoma/core";
import type { McpManager } from "@xzatoma/mcp";

/**
 * Connects the MCP servers not tried yet, unless `signal` aborts first: starting them may
 * take up to `mcp.connect_timeout_seconds`, and a cancelled run does not wait for that.
 * Resolves with the tools of every connected server, or undefined when aborted (the servers
 * go on starting, for the next run).
 */
export async function connectUnlessAborted(
  mcp: McpManager,
  signal: AbortSignal | undefined,
): Promise<Tool[] | undefined> {
  if (!signal) return mcp.connect();
  if (signal.aborted) return undefined;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([mcp.connect(), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}
