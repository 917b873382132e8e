// MCP tool search through the built CLI: a real MCP server of 61 tools over stdio (run by
// Node) and a scripted Ollama. Past mcp.tool_search.budget_tokens, `run` sends the model only
// `tool_search` of the server's tools; the tool a search finds is sent in the next request and
// runs; `/context` in chat says what the definitions cost and how many tools wait.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.test-support.js";

const MANY_TOOLS = fileURLToPath(
  new URL("../../../packages/mcp/src/__fixtures__/many-tools-server.ts", import.meta.url),
);

/** Searches, calls what the search loaded, then answers with its result. */
function convert(request: OllamaChatRequest) {
  const last = request.messages.at(-1);
  if (last?.role === "tool" && last.content.startsWith("Loaded"))
    return { toolCalls: [{ name: "reports__convert_celsius", arguments: { celsius: 100 } }] };
  if (last?.role === "tool") return { content: `Result: ${last.content}` };
  return { toolCalls: [{ name: "tool_search", arguments: { query: "celsius fahrenheit" } }] };
}

let base: string;
let project: string;
let config: string;
let server: ScriptedOllama;

const names = (request: OllamaChatRequest | undefined) =>
  (request?.tools ?? []).map((tool) => tool.function.name);
const fromServer = (list: readonly string[]) => list.filter((name) => name.startsWith("reports__"));

function xzatoma(args: readonly string[], input?: string) {
  return runCli(["--config", config, ...args], {
    // The workspace is a project beside the home directory: a server never starts from inside it.
    cwd: project,
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: path.join(base, "home"),
      OLLAMA_HOST: server.url,
      XZATOMA_PROVIDER: "ollama",
    },
    ...(input === undefined ? {} : { input }),
  });
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-tool-search-")));
  project = path.join(base, "project");
  await mkdir(project);
  await mkdir(path.join(base, "home"));
  config = path.join(base, "config.yaml");
  await writeFile(
    config,
    JSON.stringify({
      mcp: {
        tool_search: { budget_tokens: 2000 },
        servers: {
          reports: { command: process.execPath, args: [MANY_TOOLS, "60"], trusted: true },
        },
      },
    }),
  );
  server = await startScriptedOllama({ scenario: convert });
});

afterAll(async () => {
  await server?.close();
  await rm(base, { recursive: true, force: true });
});

describe("MCP tool search", () => {
  it("run: only tool_search goes to the model, then the tool it found, which runs", async () => {
    const before = server.requests.length;
    const outcome = await xzatoma(["run", "--mode", "write", "100 °C in Fahrenheit?"]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("100 °C is 212 °F");
    const [first, second, third] = server.requests.slice(before);
    expect(names(first)).toContain("tool_search");
    expect(fromServer(names(first))).toEqual([]);
    expect(fromServer(names(second))).toEqual(["reports__convert_celsius"]);
    expect(fromServer(names(third))).toEqual(["reports__convert_celsius"]);
  }, 120_000);

  it("chat: /context shows what the tool definitions cost and the deferred tools", async () => {
    const outcome = await xzatoma(
      ["chat", "--mode", "write"],
      "100 °C in Fahrenheit?\n/context\nexit\n",
    );
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(
      /Tool definitions: \d+ tools sent with each request, about \d+ tokens \(MCP: 1 tool, about \d+ tokens\)/,
    );
    expect(outcome.stdout).toMatch(
      /Deferred MCP tools: 60, about \d+ tokens, not sent until tool_search loads them \(budget 2000 tokens, mcp\.tool_search\.mode auto\)/,
    );
  }, 120_000);
});
