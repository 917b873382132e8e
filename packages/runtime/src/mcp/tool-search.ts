/**
 * MCP tool search: when the definitions of the configured MCP tools would take more of the
 * context than `mcp.tool_search.budget_tokens` (default a tenth of the model's window), they
 * are not sent with every request. The model gets one `tool_search` tool instead; a search
 * loads the tools it finds, and from the next request on their definitions are sent and
 * they can be called. Tools of a server with `always_load` are always sent.
 */
import { estimateTextTokens } from "@xzatoma/conversation";
import {
  defineTool,
  toolSuccess,
  type Tool,
  type ToolRegistry,
  type ToolSpecification,
} from "@xzatoma/core";
import { mcpToolName, type McpConfig, type McpServerReport } from "@xzatoma/mcp";
import { INPUT_NODES } from "../input-nodes.generated.js";
import { MODEL_INPUT_SCHEMAS } from "../model-input-schemas.generated.js";

/** The name of the search tool the model calls to load deferred MCP tools. */
export const TOOL_SEARCH_NAME = "tool_search";

/** The share of the model's context window the MCP tools may take by default. */
export const DEFAULT_TOOL_SEARCH_SHARE = 0.1;

/** What the tool definitions of a request cost, for `/context`. */
export interface ToolCosts {
  /** Tools sent with every request, and the estimated tokens of their definitions. */
  readonly sent: { readonly tools: number; readonly tokens: number };
  /** Of those, the MCP tools. */
  readonly mcpSent: { readonly tools: number; readonly tokens: number };
  /** MCP tools held back behind `tool_search` (not sent until a search loads them). */
  readonly deferred: { readonly tools: number; readonly tokens: number };
  /** The budget the MCP tools' definitions were held against. */
  readonly budgetTokens: number;
  /** `auto`, `always` or `never` (`mcp.tool_search.mode`). */
  readonly mode: McpConfig["tool_search"]["mode"];
}

/** The session's tool search: which MCP tools are deferred and which a search loaded. */
export interface ToolSearch {
  /**
   * Wraps a registry holding every tool of a mode: decides which MCP tools (`mcpNames`) are
   * deferred for a model with `contextWindow` tokens, adds `tool_search` when any is, and
   * returns a registry whose `specifications()` leaves out the deferred tools not loaded.
   * Every tool stays callable: a deferred tool is judged by the same policy as any other.
   * `wrap` wraps `tool_search` as the other tools are (hooks).
   */
  offer(
    registry: ToolRegistry,
    mcpNames: ReadonlySet<string>,
    contextWindow: number,
    wrap?: (tool: Tool) => Tool,
  ): ToolRegistry;
  /** What the last offered registry's tool definitions cost. */
  costs(): ToolCosts | undefined;
  /** Forgets what searches loaded (a new conversation). */
  reset(): void;
}

function tokensOf(spec: ToolSpecification): number {
  return estimateTextTokens(JSON.stringify(spec));
}

function sum(specs: readonly ToolSpecification[]): { tools: number; tokens: number } {
  return { tools: specs.length, tokens: specs.reduce((total, spec) => total + tokensOf(spec), 0) };
}

/** The registry names of the tools `always_load` names, per the servers' reports. */
function alwaysLoaded(config: McpConfig, servers: readonly McpServerReport[]): Set<string> {
  const names = new Set<string>();
  for (const server of servers) {
    const always = config.servers[server.name]?.always_load ?? false;
    if (always === false) continue;
    for (const name of server.toolNames) {
      if (always === true || always.some((tool) => mcpToolName(server.name, tool) === name))
        names.add(name);
    }
  }
  return names;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
}

/**
 * The deferred tools matching `query`, best first: each query word found in a tool's name
 * counts three, in its description one. `select:a,b` picks tools by exact name.
 */
export function searchTools(
  query: string,
  specs: readonly ToolSpecification[],
  limit: number,
): ToolSpecification[] {
  const trimmed = query.trim();
  if (trimmed.startsWith("select:")) {
    const wanted = new Set(
      trimmed
        .slice("select:".length)
        .split(",")
        .map((name) => name.trim()),
    );
    return specs.filter((spec) => wanted.has(spec.name)).slice(0, limit);
  }
  const terms = [...new Set(words(trimmed))];
  if (terms.length === 0) return [];
  const scored = specs.map((spec, index) => {
    const name = new Set(words(spec.name));
    const description = new Set(words(spec.description));
    let score = 0;
    for (const term of terms) {
      if (name.has(term)) score += 3;
      else if ([...name].some((word) => word.startsWith(term))) score += 2;
      if (description.has(term)) score += 1;
    }
    return { spec, score, index };
  });
  return scored
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map((entry) => entry.spec);
}

/**
 * Creates the session's tool search. `servers` reads the MCP servers' reports (to map
 * `always_load` to tool names).
 *
 * @example
 * const search = createToolSearch(config.mcp, () => mcp.servers());
 * const offered = search.offer(registry, new Set(mcpTools.map((tool) => tool.name)), window);
 */
export function createToolSearch(
  config: McpConfig,
  servers: () => readonly McpServerReport[],
): ToolSearch {
  const loaded = new Set<string>();
  let deferred = new Set<string>();
  let last: { registry: ToolRegistry; budget: number } | undefined;

  const searchTool = (
    registry: ToolRegistry,
    deferredTools: number,
    from: readonly string[],
  ): Tool =>
    defineTool({
      name: TOOL_SEARCH_NAME,
      description: `Finds tools of the MCP servers ${from.join(", ")} whose definitions are not loaded (${deferredTools} tools), by keywords, or \`select:name1,name2\` for exact names. The tools found are loaded: call them from your next step on, by the names returned.`,
      modelInputSchema: MODEL_INPUT_SCHEMAS.tool_search,
      inputNode: INPUT_NODES.tool_search,
      loadInputSchema: () =>
        import("./tool-search-input.js").then((module) => module.toolSearchInput),
      access: "read",
      async execute({ query, limit }) {
        const waiting = registry
          .specifications()
          .filter((spec) => deferred.has(spec.name) && !loaded.has(spec.name));
        const found = searchTools(query, waiting, limit ?? 5);
        for (const spec of found) loaded.add(spec.name);
        if (found.length === 0) {
          return toolSuccess(
            `No tool that is not loaded yet matches '${query}'. ${waiting.length} tools are still deferred; try other keywords.`,
            { loaded: 0 },
          );
        }
        const lines = found.map((spec) => `- ${spec.name}: ${spec.description}`);
        return toolSuccess(
          `Loaded ${found.length} tool(s); call them by these names:\n${lines.join("\n")}`,
          { loaded: found.map((spec) => spec.name).join(",") },
        );
      },
    }) as Tool;

  return {
    offer(registry, mcpNames, contextWindow, wrap = (tool) => tool) {
      const budget =
        config.tool_search.budget_tokens ??
        Math.max(1, Math.floor(contextWindow * DEFAULT_TOOL_SEARCH_SHARE));
      last = { registry, budget };
      const mode = config.tool_search.mode;
      const mcpSpecs = registry.specifications().filter((spec) => mcpNames.has(spec.name));
      const cost = sum(mcpSpecs).tokens;
      const defer =
        mcpSpecs.length > 0 && (mode === "always" || (mode === "auto" && cost > budget));
      if (!defer) {
        deferred = new Set();
        return registry;
      }
      const always = alwaysLoaded(config, servers());
      deferred = new Set(mcpSpecs.map((spec) => spec.name).filter((name) => !always.has(name)));
      if (deferred.size === 0) return registry;
      const from = servers()
        .filter((server) => server.toolNames.some((name) => deferred.has(name)))
        .map((server) => server.name);
      if (!registry.has(TOOL_SEARCH_NAME))
        registry.register(wrap(searchTool(registry, deferred.size, from)));
      const visible = (spec: ToolSpecification) =>
        !deferred.has(spec.name) || loaded.has(spec.name);
      return {
        register: (tool) => registry.register(tool),
        has: (name) => registry.has(name),
        get: (name) => registry.get(name),
        names: () => registry.names(),
        specifications: () => registry.specifications().filter(visible),
        execute: (call, hooks) => registry.execute(call, hooks),
      };
    },
    costs() {
      if (!last) return undefined;
      const specs = last.registry.specifications();
      const sent = specs.filter((spec) => !deferred.has(spec.name) || loaded.has(spec.name));
      const mcpSent = sent.filter(
        (spec) => deferred.has(spec.name) || servers().some((s) => s.toolNames.includes(spec.name)),
      );
      return {
        sent: sum(sent),
        mcpSent: sum(mcpSent),
        deferred: sum(specs.filter((spec) => deferred.has(spec.name) && !loaded.has(spec.name))),
        budgetTokens: last.budget,
        mode: config.tool_search.mode,
      };
    },
    reset() {
      loaded.clear();
    },
  };
}
