import { defineTool, type Tool } from "@xzatoma/core";
import type { McpServerConfig } from "./mcp-config.js";
import type { McpConnection, McpToolInfo } from "./mcp-connection.js";
import { mapCallResult, type McpCallResult } from "./result-mapping.js";
import { mcpToolName, uniqueToolName } from "./tool-names.js";

/** What {@link createMcpTools} needs of the manager. */
export interface McpToolsContext {
  readonly connection: McpConnection;
  readonly config: McpServerConfig;
  readonly connectTimeoutMs: number;
  /** Names already taken (built-in tools, other servers' tools); the new names are added. */
  readonly taken: Set<string>;
  /**
   * Told after every call that reached the server: what a server returns is opaque (a file
   * outside the workspace, a token), so the session counts as possibly holding a secret
   * (the workspace's secret exposure, which makes a fetch to a host the user has not
   * allowed need a person's yes).
   */
  readonly exposure?: { record(what: string): void };
}

/**
 * The top-level JSON Schema keys of a server's input schema that are sent to the model.
 * Anything else at the top (`type` other than `object`, `$ref`, `anyOf`, `$schema`, `$id`,
 * ...) would make a provider refuse the whole request, every tool with it.
 */
const KEPT_KEYS = new Set([
  "properties",
  "required",
  "additionalProperties",
  "description",
  "title",
  "$defs",
  "definitions",
]);

/** A server's schema larger than this (as JSON) is replaced by an empty object schema. */
export const MAX_INPUT_SCHEMA_CHARS = 64 * 1024;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * What of a server's input schema the model sees: always `type: object`, `properties` only
 * when it is an object, `required` only when it lists strings, and nothing at all from a
 * schema over {@link MAX_INPUT_SCHEMA_CHARS}. A malformed schema costs that one tool its
 * parameter descriptions, never the session its requests.
 */
export function modelInputSchema(jsonSchema: unknown): Record<string, unknown> {
  const empty = { type: "object", properties: {} };
  if (!isPlainObject(jsonSchema)) return empty;
  let size: number;
  try {
    size = JSON.stringify(jsonSchema).length;
  } catch {
    return empty;
  }
  if (size > MAX_INPUT_SCHEMA_CHARS) return empty;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(jsonSchema)) {
    if (!KEPT_KEYS.has(key)) continue;
    if (key === "required") {
      if (Array.isArray(value) && value.every((item) => typeof item === "string"))
        kept[key] = value;
    } else if (key === "additionalProperties") {
      if (typeof value === "boolean" || isPlainObject(value)) kept[key] = value;
    } else if (key === "description" || key === "title") {
      if (typeof value === "string") kept[key] = value;
    } else if (isPlainObject(value)) {
      kept[key] = value;
    }
  }
  return { ...empty, ...kept, type: "object" };
}

/**
 * The JSON Schema the model reads for an MCP tool: the server's schema as
 * {@link modelInputSchema} keeps it, over an object schema that allows any property. The
 * call's input is validated only as a JSON object (the server checks its own arguments),
 * with a zod schema loaded on the first call of an MCP tool.
 */
export function mcpToolInputSchema(jsonSchema: unknown): Record<string, unknown> {
  return {
    type: "object",
    properties: {},
    additionalProperties: {},
    ...modelInputSchema(jsonSchema),
  };
}

/** Whether a server's tool is offered, by `include_tools` and `exclude_tools`. */
export function isToolIncluded(config: McpServerConfig, tool: string): boolean {
  if (config.include_tools.length > 0 && !config.include_tools.includes(tool)) return false;
  return !config.exclude_tools.includes(tool);
}

/**
 * The registry tools of one connected server: named `<server>__<tool>`, described by the
 * server, with its JSON Schema. They are `write` tools whose every call needs a person's
 * yes (`requiresPerson`: asked in chat, refused where no one is asked, full autonomous mode
 * included; planning mode does not offer them) unless the server is `trusted` or the tool is
 * in `trusted_tools`, and they stop at the server's `timeout_seconds`.
 */
export function createMcpTools(context: McpToolsContext, listed: readonly McpToolInfo[]): Tool[] {
  const { connection, config } = context;
  const server = connection.name;
  const timeoutMs = config.timeout_seconds * 1000;
  return listed
    .filter((info) => isToolIncluded(config, info.name))
    .map((info) => {
      const name = uniqueToolName(mcpToolName(server, info.name), context.taken);
      const trusted = config.trusted || config.trusted_tools.includes(info.name);
      const description = (info.description ?? "").trim();
      return defineTool({
        name,
        description: `${description || `The tool '${info.name}'`} (from the MCP server '${server}')`,
        modelInputSchema: mcpToolInputSchema(info.inputSchema),
        loadInputSchema: () =>
          import("./pass-through-input.js").then((module) => module.passThroughInput),
        access: "write",
        timeoutMs,
        // XZatoma cannot see what a server does with its arguments (the filesystem server
        // writes `.git/config` if its directory holds one), so no path rule can judge the
        // call: only a person may allow an untrusted tool, in every mode.
        assess: (input) => {
          const summary = `MCP ${server}/${info.name} ${JSON.stringify(input).slice(0, 400)}`;
          return trusted
            ? {
                verdict: "allow",
                reason: `${server}/${info.name} is trusted in the configuration (mcp.servers.${server})`,
                summary,
              }
            : {
                verdict: "confirm",
                requiresPerson: true,
                reason: `${server}/${info.name} is a tool of the MCP server '${server}', and what it does (files it writes, programs it runs) is up to that server, out of reach of XZatoma's path rules`,
                summary,
              };
        },
        async execute(input, toolContext) {
          let result: McpCallResult;
          try {
            result = await connection.callTool(info.name, input, {
              signal: toolContext.signal,
              timeoutMs,
              connectTimeoutMs: context.connectTimeoutMs,
            });
          } finally {
            // Even a failed call may have carried the server's text back (its error).
            context.exposure?.record(`called the MCP tool ${server}/${info.name}`);
          }
          return mapCallResult(result, name);
        },
      });
    });
}
