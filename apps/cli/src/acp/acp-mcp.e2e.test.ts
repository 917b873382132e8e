// The MCP servers an editor sends in session/new, and a session's mode across session/load:
// the built `xzatoma agent` driven through the ACP SDK's client side, with a scripted Ollama
// server as the model and real MCP server processes over stdio.
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
  type ScriptedTurn,
} from "@xzatoma/scripted-servers/ollama";
import { agentText, initialize, startEditor, type TestEditor } from "./acp.test-support.js";

const ENV_SERVER = fileURLToPath(
  new URL("../../../../packages/mcp/src/__fixtures__/env-server.ts", import.meta.url),
);

let base: string;
let workspace: string;
let home: string;
let model: ScriptedOllama;
let script: (request: OllamaChatRequest) => ScriptedTurn;
const editors: TestEditor[] = [];

function editor(env: Record<string, string> = {}) {
  const started = startEditor({
    cwd: base,
    env: { PATH: process.env["PATH"] ?? "", HOME: home, OLLAMA_HOST: model.url, ...env },
  });
  editors.push(started);
  return started;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-acp-mcp-")));
  workspace = path.join(base, "project");
  home = path.join(base, "home");
  await mkdir(home, { recursive: true });
  await mkdir(workspace, { recursive: true });
  model = await startScriptedOllama({ scenario: (request) => script(request) });
});

afterEach(async () => {
  await Promise.all(editors.splice(0).map((started) => started.stop()));
});

afterAll(async () => {
  await model.close();
  await rm(base, { recursive: true, force: true });
});

const offered = (request: OllamaChatRequest | undefined) =>
  request?.tools?.map((tool) => tool.function.name) ?? [];

describe("the MCP servers an editor sends in session/new", () => {
  it("are started under the configured servers' rules: each call asks the editor, values are literal, secrets stay out, a launcher in the workspace and SSE are refused with a word", async () => {
    // A launcher inside the workspace: refused like a configured one.
    const planted = path.join(workspace, "server.sh");
    await writeFile(planted, "#!/bin/sh\necho planted > planted.txt\n");
    await chmod(planted, 0o755);
    script = (request) => {
      const result = request.messages.findLast((message) => message.role === "tool");
      return result
        ? { content: `ENV ${result.content}` }
        : { toolCalls: [{ name: "env-tools__environment", arguments: {} }] };
    };
    const agent = editor({
      OPENAI_API_KEY: "sk-never-for-an-editor-server",
      HTTPS_PROXY: "http://proxy.internal:3128",
      NO_PROXY: "127.0.0.1,localhost",
    });
    const init = await initialize(agent);
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: false });
    const { sessionId } = await agent.connection.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [
        {
          name: "env tools",
          command: process.execPath,
          args: [ENV_SERVER],
          env: [
            { name: "FROM_EDITOR", value: "given by the editor" },
            // Taken literally: an editor's entry cannot read XZatoma's environment.
            { name: "LOOKS_UP", value: "${OPENAI_API_KEY}" },
          ],
        },
        { name: "planted", command: planted, args: [], env: [] },
        { type: "sse", name: "old-style", url: "http://127.0.0.1:9/sse", headers: [] },
      ],
    });
    // MCP tools are offered in write mode, as in chat.
    await agent.connection.agent.request("session/set_mode", { sessionId, modeId: "write" });
    const { stopReason } = await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "What is your environment?" }],
    });
    expect(stopReason).toBe("end_turn");
    expect(offered(model.requests[0])).toContain("env-tools__environment");
    expect(offered(model.requests[0]).some((name) => name.startsWith("planted__"))).toBe(false);
    // An editor cannot trust a tool: the call asked the editor (which allowed it).
    expect(agent.permissions.map((request) => request.toolCall.title)).toHaveLength(1);
    const json = /ENV (\{.*\})/s.exec(agentText(agent, sessionId))?.[1];
    expect(json).toBeDefined();
    const seen = JSON.parse(json!) as Record<string, string>;
    expect(seen["FROM_EDITOR"]).toBe("given by the editor");
    expect(seen["LOOKS_UP"]).toBe("${OPENAI_API_KEY}");
    expect(seen["HTTPS_PROXY"]).toBe("http://proxy.internal:3128");
    expect(seen).not.toHaveProperty("OPENAI_API_KEY");

    const stderr = agent.stderr();
    expect(stderr).toContain(
      "the editor's MCP server 'old-style' was left out: it speaks SSE, and XZatoma connects to stdio and streamable HTTP servers",
    );
    expect(stderr).toContain("MCP server 'planted' (mcp.servers.planted) could not be started");
    expect(stderr).toContain("inside the workspace");
  }, 120_000);
});

describe("a session's mode", () => {
  it("is kept across session/load by a new agent process", async () => {
    script = () => ({ content: "noted" });
    const first = editor();
    await initialize(first);
    const created = await first.connection.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [],
    });
    const { sessionId } = created;
    const other = created.modes?.currentModeId === "write" ? "planning" : "write";
    await first.connection.agent.request("session/set_mode", { sessionId, modeId: other });
    await first.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "remember this" }],
    });
    const writeToolsBefore = offered(model.requests.at(-1)).includes("write_file");
    expect(writeToolsBefore).toBe(other === "write");
    expect(await first.stop()).toBe(0);

    const second = editor();
    await initialize(second);
    const loaded = await second.connection.agent.request("session/load", {
      sessionId,
      cwd: workspace,
      mcpServers: [],
    });
    expect(loaded.modes?.currentModeId).toBe(other);
    await second.waitForUpdate(
      (note) =>
        note.update.sessionUpdate === "current_mode_update" && note.update.currentModeId === other,
    );
    await second.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "and now?" }],
    });
    // The model is offered the tools of the mode the session was left in.
    expect(offered(model.requests.at(-1)).includes("write_file")).toBe(other === "write");
  }, 120_000);
});
