// MCP servers in a runtime driven by the scripted model: the reference server-everything and
// XZatoma's fixture server over stdio (from @xzatoma/mcp's workspace package), started by the
// runtime at its first run and kept for the whole file.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { startScriptedOpenAI, type ScriptedOpenAI } from "@xzatoma/scripted-servers/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentRuntime, type AgentRuntime } from "../agent-runtime.js";
import { resolveRuntimeConfig } from "../resolve-config.js";

const mcpPackage = path.dirname(
  createRequire(import.meta.url).resolve("@xzatoma/mcp/package.json"),
);
const everything = path.join(mcpPackage, "node_modules", ".bin", "mcp-server-everything");
const fixture = path.join(mcpPackage, "src", "__fixtures__", "stdio-server.ts");

/** The tool call each prompt asks for; after a tool result the model repeats it. */
const CALLS: Record<string, { name: string; arguments: Record<string, unknown> }> = {
  echo: { name: "everything__echo", arguments: { message: "through the agent" } },
  add: { name: "fixture__add", arguments: { a: 2, b: 3 } },
  fail: { name: "fixture__fail", arguments: { why: "it must" } },
};

let home: string;
let workspace: string;
let model: ScriptedOpenAI;
let runtime: AgentRuntime;
const warnings: string[] = [];

function configFor(servers: Record<string, unknown>) {
  return resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: model.url, model: "scripted-1" } },
      agent: { terminal: { sandbox: false } },
      persistence: { data_dir: path.join(home, "data") },
      mcp: { servers },
    },
    { homeDir: home, env: {} },
  );
}

const mcpToolsOf = (names: readonly string[]) => names.filter((name) => name.includes("__"));

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xz-mcp-home-"));
  workspace = await mkdtemp(path.join(os.tmpdir(), "xz-mcp-ws-"));
  model = await startScriptedOpenAI({
    apiKey: "sk-test",
    models: ["scripted-1"],
    scenario: (request) => {
      const last = request.messages.at(-1);
      if (last?.role === "tool") return { content: `Result: ${last.content}` };
      const call = CALLS[last?.content.trim() ?? ""];
      return call ? { toolCalls: [call] } : { content: "nothing to do" };
    },
  });
  runtime = await createAgentRuntime(
    configFor({
      everything: { command: everything, args: ["stdio"], trusted: true },
      fixture: { command: process.execPath, args: [fixture], trusted_tools: ["add"] },
      broken: { command: path.join(workspace, "no-such-server") },
    }),
    { warn: (message) => warnings.push(message) },
    {
      workspace,
      modes: { chatMode: "write", approvalPolicy: "never" },
      env: { OPENAI_API_KEY: "sk-test" },
    },
  );
}, 60_000);

afterAll(async () => {
  await runtime?.close();
  await model?.close();
  await rm(home, { recursive: true, force: true });
  await rm(workspace, { recursive: true, force: true });
});

describe("MCP tools in the runtime", () => {
  it("starts no server before the first run, then offers their tools in its first request", async () => {
    expect(runtime.mcp?.servers().map((server) => server.state)).toEqual(["idle", "idle", "idle"]);
    expect(mcpToolsOf(runtime.status().tools)).toEqual([]);

    const result = await runtime.run("echo");
    expect(result.text).toContain("through the agent");
    const first = model.chatRequests[0] as { tools?: { function: { name: string } }[] };
    expect(first.tools?.map((tool) => tool.function.name)).toContain("everything__echo");
    expect(runtime.mcp?.servers().map((server) => server.state)).toEqual([
      "connected",
      "connected",
      "failed",
    ]);
    expect(warnings.filter((warning) => warning.includes("'broken'"))).toHaveLength(1);
  });

  it("runs a trusted tool where no one is asked and refuses the others, which only a person may allow, in the audit log", async () => {
    expect((await runtime.run("add")).text).toContain("Result: 5");
    const refused = await runtime.run("fail");
    expect(refused.text).toContain("Only a person's yes can allow this");
    expect(refused.text).not.toContain("failed because");
    const audit = await readFile(path.join(home, "data", "audit.log"), "utf8");
    expect(audit).toContain("fixture__add");
    expect(audit).toContain("fixture__fail");
  });

  it("keeps the tools across mode switches, and planning mode leaves them out", async () => {
    const all = mcpToolsOf(runtime.status().tools);
    expect(all).toEqual(expect.arrayContaining(["everything__echo", "fixture__add"]));
    runtime.setMode("planning");
    expect(mcpToolsOf(runtime.status().tools)).toEqual([]);
    runtime.setMode("write");
    expect(mcpToolsOf(runtime.status().tools)).toEqual(all);
    expect((await runtime.run("add")).text).toContain("Result: 5");
    expect(warnings.filter((warning) => warning.includes("'broken'"))).toHaveLength(1);
  });

  it("does not keep a cancelled run waiting for a server that is slow to start", async () => {
    const slow = await createAgentRuntime(
      // Never answers the handshake.
      configFor({
        silent: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] },
      }),
      { warn: () => undefined },
      {
        workspace,
        modes: { chatMode: "write", approvalPolicy: "never" },
        env: { OPENAI_API_KEY: "sk-test" },
        history: false,
      },
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    try {
      const result = await slow.run("add", { signal: controller.signal });
      expect(result.stopReason).toBe("aborted");
      expect(slow.mcp?.servers()[0]?.state).toBe("connecting");
    } finally {
      await slow.close();
    }
    expect(slow.mcp?.servers()[0]?.state).not.toBe("connected");
  });

  it("asks the person in interactive mode, and runs the call on their yes", async () => {
    const asked: string[] = [];
    const interactive = await createAgentRuntime(
      configFor({ fixture: { command: process.execPath, args: [fixture] } }),
      {
        warn: (message) => warnings.push(message),
        ask: async (request) => {
          asked.push(`${request.toolName}: ${request.reason}`);
          return { approved: true };
        },
      },
      {
        workspace,
        modes: { chatMode: "write", approvalPolicy: "untrusted" },
        env: { OPENAI_API_KEY: "sk-test" },
        history: false,
      },
    );
    try {
      expect((await interactive.run("add")).text).toContain("Result: 5");
      expect(asked).toEqual([
        expect.stringContaining("fixture__add: fixture/add is a tool of the MCP server 'fixture'"),
      ]);
    } finally {
      await interactive.close();
    }
    expect(interactive.mcp?.servers()[0]?.state).toBe("idle");
  });
  it("counts what a trusted tool returned as possibly secret: a fetch to a host not allowed then needs a person", async () => {
    const trusting = await createAgentRuntime(
      configFor({ fixture: { command: process.execPath, args: [fixture], trusted: true } }),
      { warn: (message) => warnings.push(message) },
      {
        workspace,
        modes: { chatMode: "write", approvalPolicy: "never" },
        env: { OPENAI_API_KEY: "sk-test" },
        history: false,
      },
    );
    try {
      expect(trusting.workspace.exposure.exposed).toBe(false);
      expect((await trusting.run("add")).text).toContain("Result: 5");
      expect(trusting.workspace.exposure.exposed).toBe(true);
      expect(trusting.workspace.exposure.reasons).toEqual(["called the MCP tool fixture/add"]);
      const fetchTool = trusting.agent.tools.get("fetch");
      const judged = await fetchTool?.assess?.({ url: "https://example.com/?d=secret" });
      expect(judged).toMatchObject({ verdict: "confirm", requiresPerson: true });
    } finally {
      await trusting.close();
    }
  });
});

describe("where an MCP server starts", () => {
  it("is never the workspace, whose files the model writes, nor a file of it handed to the program", async () => {
    // A server entry that resolves a script against its working directory, as `python -m`,
    // npx's local .bin or a relative path do. The script is one the model could have written.
    const planted = path.join(workspace, "planted.js");
    const canary = path.join(home, "planted-ran");
    await writeFile(
      planted,
      `require("node:fs").writeFileSync(${JSON.stringify(canary)}, process.cwd());\n`,
    );
    const start = async (entry: Record<string, unknown>) => {
      const warned: string[] = [];
      const plantedRuntime = await createAgentRuntime(
        configFor({ local: { command: process.execPath, ...entry } }),
        { warn: (message) => warned.push(message) },
        {
          workspace,
          modes: { chatMode: "write", approvalPolicy: "never" },
          env: { OPENAI_API_KEY: "sk-test" },
        },
      );
      try {
        await plantedRuntime.run("nothing");
      } finally {
        await plantedRuntime.close();
      }
      return warned;
    };
    const warned = await start({ args: ["planted.js"] });
    expect(existsSync(canary)).toBe(false);
    expect(warned.join("\n")).toContain("MCP server 'local'");
    // Told to start in the workspace, or handed the workspace's file, it is not started at all.
    const inWorkspace = await start({ args: ["planted.js"], cwd: "${WORKSPACE}" });
    expect(existsSync(canary)).toBe(false);
    expect(inWorkspace.join("\n")).toContain("its working directory is");
    const handed = await start({ args: ["${WORKSPACE}/planted.js"] });
    expect(existsSync(canary)).toBe(false);
    expect(handed.join("\n")).toContain("its argument '");
  }, 120_000);
});
