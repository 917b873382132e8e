// MCP tool search in a runtime driven by a scripted model over HTTP, with a real MCP server
// of 61 tools started over stdio: past the budget only `tool_search` and the always_load
// tools go to the model; a search loads what it finds for the next request, where it is called.
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { startScriptedOpenAI, type ScriptedOpenAI } from "@xzatoma/scripted-servers/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentRuntime, type AgentRuntime } from "../agent-runtime.js";
import { resolveRuntimeConfig } from "../resolve-config.js";
import { searchTools, TOOL_SEARCH_NAME } from "./tool-search.js";

const mcpPackage = path.dirname(
  createRequire(import.meta.url).resolve("@xzatoma/mcp/package.json"),
);
const manyTools = path.join(mcpPackage, "src", "__fixtures__", "many-tools-server.ts");

let home: string;
let workspace: string;
let model: ScriptedOpenAI;
const runtimes: AgentRuntime[] = [];

interface SentRequest {
  readonly tools?: readonly {
    readonly function: { readonly name: string; readonly description?: string };
  }[];
}
const toolNames = (request: unknown) =>
  ((request as SentRequest).tools ?? []).map((tool) => tool.function.name);
const mcpNames = (names: readonly string[]) => names.filter((name) => name.includes("__"));

async function runtimeWith(mcp: Record<string, unknown>): Promise<AgentRuntime> {
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: model.url, model: "scripted-1" } },
      agent: { terminal: { sandbox: false } },
      persistence: { data_dir: path.join(home, "data"), enabled: false },
      mcp,
    },
    { homeDir: home, env: {} },
  );
  const runtime = await createAgentRuntime(
    config,
    { warn: () => undefined },
    {
      workspace,
      modes: { chatMode: "write", approvalPolicy: "never" },
      env: { OPENAI_API_KEY: "sk-test" },
      skills: false,
    },
  );
  runtimes.push(runtime);
  return runtime;
}

const reports = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [manyTools, "60"],
  trusted: true,
  ...extra,
});

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xz-tool-search-home-"));
  workspace = await mkdtemp(path.join(os.tmpdir(), "xz-tool-search-ws-"));
  model = await startScriptedOpenAI({
    apiKey: "sk-test",
    models: ["scripted-1"],
    scenario: (request) => {
      const last = request.messages.at(-1);
      if (last?.role === "tool" && last.content.includes("Loaded"))
        return { toolCalls: [{ name: "reports__convert_celsius", arguments: { celsius: 100 } }] };
      if (last?.role === "tool") return { content: `Result: ${last.content}` };
      return {
        toolCalls: [{ name: TOOL_SEARCH_NAME, arguments: { query: "celsius fahrenheit" } }],
      };
    },
  });
});

afterAll(async () => {
  for (const runtime of runtimes) await runtime.close();
  await model?.close();
  await rm(home, { recursive: true, force: true });
  await rm(workspace, { recursive: true, force: true });
});

describe("MCP tool search", () => {
  it("sends only tool_search and the always_load tools, loads what a search finds for the next request, and the found tool runs", async () => {
    const runtime = await runtimeWith({
      tool_search: { budget_tokens: 2_000 },
      servers: { reports: reports({ always_load: ["report_sales_6"] }) },
    });
    const before = model.chatRequests.length;
    const result = await runtime.run("How warm is 100 degrees Celsius in Fahrenheit?");
    expect(result.text).toContain("100 °C is 212 °F");

    const [first, second, third] = model.chatRequests.slice(before);
    const offered = toolNames(first);
    expect(offered).toContain(TOOL_SEARCH_NAME);
    const search = (first as SentRequest).tools?.find(
      (tool) => tool.function.name === TOOL_SEARCH_NAME,
    );
    expect(search?.function.description).toContain("MCP servers reports");
    expect(search?.function.description).toContain("(60 tools)");
    expect(offered).toContain("read_file");
    expect(mcpNames(offered)).toEqual(["reports__report_sales_6"]);
    // After the search, the tool it found is offered too, and nothing else of the server.
    expect(mcpNames(toolNames(second))).toEqual([
      "reports__report_sales_6",
      "reports__convert_celsius",
    ]);
    expect(mcpNames(toolNames(third))).toEqual(mcpNames(toolNames(second)));

    const costs = runtime.toolCosts();
    expect(costs?.deferred.tools).toBe(59);
    expect(costs?.mcpSent.tools).toBe(2);
    expect(costs?.budgetTokens).toBe(2_000);
    expect(costs?.deferred.tokens).toBeGreaterThan(2_000);
    expect(costs?.sent.tools).toBe(offered.length + 1);

    // A new conversation forgets what searches loaded.
    runtime.clear();
    expect(mcpNames(runtime.agent.tools.specifications().map((spec) => spec.name))).toEqual([
      "reports__report_sales_6",
    ]);
  }, 120_000);

  it("sends every MCP tool when their definitions fit the budget, or with mode never", async () => {
    for (const toolSearch of [{ budget_tokens: 1_000_000 }, { mode: "never" }]) {
      const runtime = await runtimeWith({
        tool_search: toolSearch,
        servers: { reports: reports() },
      });
      const before = model.chatRequests.length;
      await runtime.run("How warm is 100 degrees Celsius in Fahrenheit?");
      const offered = toolNames(model.chatRequests[before]);
      expect(offered).not.toContain(TOOL_SEARCH_NAME);
      expect(mcpNames(offered)).toHaveLength(61);
      expect(runtime.toolCosts()?.deferred.tools).toBe(0);
      await runtime.close();
    }
  }, 120_000);

  it("defers even a small server with mode always, unless the server is always_load", async () => {
    const runtime = await runtimeWith({
      tool_search: { mode: "always" },
      servers: { reports: { ...reports(), args: [manyTools, "1"] } },
    });
    await runtime.run("How warm is 100 degrees Celsius in Fahrenheit?");
    // The search loaded convert_celsius; the report tool still waits.
    expect(runtime.toolCosts()?.deferred.tools).toBe(1);
    runtime.clear();
    expect(runtime.toolCosts()?.deferred.tools).toBe(2);
    const loaded = await runtimeWith({
      tool_search: { mode: "always" },
      servers: { reports: { ...reports({ always_load: true }), args: [manyTools, "1"] } },
    });
    const before = model.chatRequests.length;
    await loaded.run("How warm is 100 degrees Celsius in Fahrenheit?");
    const offered = toolNames(model.chatRequests[before]);
    expect(offered).not.toContain(TOOL_SEARCH_NAME);
    expect(mcpNames(offered)).toHaveLength(2);
  }, 120_000);
});

describe("searchTools", () => {
  const specs = [
    { name: "a__convert_celsius", description: "Converts Celsius to Fahrenheit.", inputSchema: {} },
    { name: "a__report_sales", description: "A sales report.", inputSchema: {} },
    { name: "a__weather", description: "The weather in Celsius.", inputSchema: {} },
  ];
  it("ranks a word in the name above one in the description", () => {
    expect(searchTools("celsius", specs, 5).map((spec) => spec.name)).toEqual([
      "a__convert_celsius",
      "a__weather",
    ]);
  });
  it("selects by exact names", () => {
    expect(searchTools("select:a__weather, a__report_sales", specs, 5).map((s) => s.name)).toEqual([
      "a__report_sales",
      "a__weather",
    ]);
  });
  it("finds nothing for a query without words", () => {
    expect(searchTools("  ", specs, 5)).toEqual([]);
  });
});
