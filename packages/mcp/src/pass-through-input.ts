// The zod input schema of every MCP tool, imported on an MCP tool's first call: any JSON
// object (the server checks its own arguments). What the model reads is the server's own
// JSON Schema (`mcpToolInputSchema`).
import { z } from "zod";

/** Any JSON object. */
export const passThroughInput = z.looseObject({});
