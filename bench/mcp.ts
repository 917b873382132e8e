// MCP: (1) the start-up time that 3 configured stdio MCP servers add before their first use
// (target < 10 ms): importing @xzatoma/mcp in a fresh process, and createAgentRuntime with
// and without them, median of 30 after a warm-up, checking that no server was started; the
// time the first run then spends starting all three (in parallel) and listing their tools; (2) the overhead of an MCP tool call beyond
// the server's own time: 300 calls of the fixture server's `add` through the tool registry
// (validation, approval, timeout, result mapping) against the same calls made directly with
// the SDK's Client over its own stdio connection. In process, against the built packages.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createToolRegistry } from "../packages/core/dist/index.js";
import { createMcpManager, mcpConfigSchema } from "../packages/mcp/dist/index.js";
import { createAgentRuntime, resolveRuntimeConfig } from "../packages/runtime/dist/index.js";
import { startScriptedOpenAI } from "../tools/scripted-servers/openai-server.ts";
import { median, ROOT } from "./measure.ts";

const RUNS = 30;
const CALLS = 300;
const FIXTURE = path.join(ROOT, "packages", "mcp", "src", "__fixtures__", "stdio-server.ts");
const home = mkdtempSync(path.join(tmpdir(), "xz-bench-mcp-home-"));
const workspace = mkdtempSync(path.join(tmpdir(), "xz-bench-mcp-ws-"));
const fixtureServer = { command: process.execPath, args: [FIXTURE], trusted: true };
const threeServers = { one: fixtureServer, two: fixtureServer, three: fixtureServer };

const model = await startScriptedOpenAI({
  apiKey: "sk-bench",
  models: ["m"],
  scenario: () => ({ content: "done" }),
});

function configWith(servers: Record<string, unknown>) {
  return resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: model.url, model: "m" } },
      agent: { terminal: { sandbox: false } },
      persistence: { enabled: false, data_dir: path.join(home, "data") },
      mcp: { servers },
    },
    { homeDir: home, env: {} },
  );
}

const runtimeOptions = {
  workspace,
  modes: { chatMode: "write", safetyMode: "safe", executionMode: "restricted" },
  env: { OPENAI_API_KEY: "sk-bench" },
} as const;

async function timeCreate(servers: Record<string, unknown>): Promise<number> {
  const config = configWith(servers);
  const started = performance.now();
  const runtime = await createAgentRuntime(config, { warn: () => undefined }, runtimeOptions);
  const elapsed = performance.now() - started;
  if (runtime.mcp?.servers().some((server) => server.state !== "idle"))
    throw new Error("a server was started before its first use");
  await runtime.close();
  return elapsed;
}

// (1) start-up: loading @xzatoma/mcp in a fresh process (the runtime imports it; the SDK is
// not loaded), then building a runtime with and without servers
const MCP_ENTRY = pathToFileURL(path.join(ROOT, "packages", "mcp", "dist", "index.js")).href;
const CORE_ENTRY = pathToFileURL(path.join(ROOT, "packages", "core", "dist", "index.js")).href;
// The import is timed inside each fresh process, after @xzatoma/core (which every front end
// loads first), so the process start-up's noise stays out of it.
const loadMcp: number[] = [];
for (let run = 0; run < 10; run++) {
  const script = `await import(${JSON.stringify(CORE_ENTRY)}); const t = performance.now(); await import(${JSON.stringify(MCP_ENTRY)}); console.log(performance.now() - t);`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  loadMcp.push(Number(child.stdout.trim()));
}
for (let warm = 0; warm < 5; warm++) {
  await timeCreate({});
  await timeCreate(threeServers);
}
const without: number[] = [];
const withServers: number[] = [];
for (let run = 0; run < RUNS; run++) {
  without.push(await timeCreate({}));
  withServers.push(await timeCreate(threeServers));
}
const firstRun: number[] = [];
const laterRun: number[] = [];
for (let run = 0; run < 5; run++) {
  const runtime = await createAgentRuntime(
    configWith(threeServers),
    { warn: (message) => (message.includes("MCP") ? console.error(message) : undefined) },
    runtimeOptions,
  );
  let started = performance.now();
  await runtime.run("hello");
  firstRun.push(performance.now() - started);
  started = performance.now();
  await runtime.run("hello again");
  laterRun.push(performance.now() - started);
  await runtime.close();
}

// (2) call overhead
const manager = createMcpManager({
  config: mcpConfigSchema.parse({ servers: { fixture: fixtureServer } }),
  cwd: workspace,
});
const registry = createToolRegistry();
for (const tool of await manager.connect()) registry.register(tool);
const sdk = path.dirname(
  createRequire(path.join(ROOT, "packages", "mcp", "package.json")).resolve(
    "@modelcontextprotocol/sdk/client/index.js",
  ),
);
const { Client } = (await import(pathToFileURL(path.join(sdk, "index.js")).href)) as {
  Client: new (info: { name: string; version: string }) => {
    connect(transport: unknown): Promise<void>;
    callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
    close(): Promise<void>;
  };
};
const { StdioClientTransport } = (await import(pathToFileURL(path.join(sdk, "stdio.js")).href)) as {
  StdioClientTransport: new (params: {
    command: string;
    args: string[];
    stderr: string;
  }) => unknown;
};
const direct = new Client({ name: "bench", version: "1" });
await direct.connect(
  new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: "ignore" }),
);
const signal = new AbortController().signal;
const hooks = { signal, approve: () => ({ approved: true }) };
const throughRegistry: number[] = [];
const throughSdk: number[] = [];
for (let call = 0; call < CALLS + 20; call++) {
  let started = performance.now();
  const result = await registry.execute(
    { toolCallId: `c${call}`, toolName: "fixture__add", input: JSON.stringify({ a: call, b: 1 }) },
    hooks,
  );
  const ours = performance.now() - started;
  if (result.output !== String(call + 1)) throw new Error(`unexpected result ${result.output}`);
  started = performance.now();
  await direct.callTool({ name: "add", arguments: { a: call, b: 1 } });
  const raw = performance.now() - started;
  if (call >= 20) {
    throughRegistry.push(ours);
    throughSdk.push(raw);
  }
}
await direct.close();
await manager.close();
await model.close();
rmSync(home, { recursive: true, force: true });
rmSync(workspace, { recursive: true, force: true });

const ms = (value: number) => `${value.toFixed(2)} ms`;
const startupAdded = median(withServers) - median(without);
const callAdded = median(throughRegistry) - median(throughSdk);
console.log("mcp: 3 configured stdio servers (the fixture server), in process");
console.log(
  `  createAgentRuntime: ${ms(median(without))} without, ${ms(median(withServers))} with them: ${ms(startupAdded)} added (target < 10 ms), median of ${RUNS}; no server started`,
);
console.log(
  `  importing @xzatoma/mcp (not the SDK) in a fresh process after @xzatoma/core: ${ms(median(loadMcp))}, median of 10`,
);
console.log(
  `  first run (starts all three at once, lists tools, one model request): ${ms(median(firstRun))}; a later run: ${ms(median(laterRun))}; median of 5`,
);
console.log(
  `  tool call: ${ms(median(throughSdk))} with the SDK's Client directly, ${ms(median(throughRegistry))} through the registry: ${ms(callAdded)} added per call, median of ${CALLS}`,
);
