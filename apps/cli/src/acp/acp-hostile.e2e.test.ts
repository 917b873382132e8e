// `xzatoma agent` against a hostile model and an editor that answers oddly: the built CLI
// driven through the ACP SDK's client side, with a scripted Ollama server as the model. The
// path guard and the judgements must stand in front of the editor's file system.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
  type ScriptedTurn,
} from "@xzatoma/scripted-servers/ollama";
import { initialize, startEditor, type TestEditor } from "./acp.test-support.js";

let base: string;
let workspace: string;
let home: string;
let model: ScriptedOllama;
let script: (request: OllamaChatRequest) => ScriptedTurn;
const editors: TestEditor[] = [];

const lastUser = (request: OllamaChatRequest) =>
  request.messages.findLast((message) => message.role === "user")?.content ?? "";

/** The model calls `name` with `input` for each prompt, then ends the turn with the result. */
function callOnce(name: string, input: (prompt: string) => Record<string, unknown>) {
  script = (request) => {
    const last = request.messages.at(-1);
    if (last?.role === "tool") return { content: `result: ${last.content}` };
    return { toolCalls: [{ name, arguments: input(lastUser(request)) }] };
  };
}

function editor(options: Omit<Parameters<typeof startEditor>[0], "cwd" | "env"> = {}) {
  const started = startEditor({
    cwd: base,
    env: { PATH: process.env["PATH"] ?? "", HOME: home, OLLAMA_HOST: model.url },
    ...options,
  });
  editors.push(started);
  return started;
}

async function session(agent: TestEditor, cwd = workspace): Promise<string> {
  await initialize(agent, { fs: { readTextFile: true, writeTextFile: true } });
  const { sessionId } = await agent.connection.agent.request("session/new", {
    cwd,
    mcpServers: [],
  });
  await agent.connection.agent.request("session/set_mode", { sessionId, modeId: "write" });
  return sessionId;
}

const prompt = (agent: TestEditor, sessionId: string, text: string) =>
  agent.connection.agent.request("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text }],
  });

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-acp-hostile-")));
  workspace = path.join(base, "project");
  home = path.join(base, "home");
  await mkdir(home, { recursive: true });
  await mkdir(path.join(workspace, ".git", "hooks"), { recursive: true });
  await writeFile(path.join(workspace, ".env"), "TOKEN=on-disk\n");
  model = await startScriptedOllama({ scenario: (request) => script(request) });
});

afterEach(async () => {
  await Promise.all(editors.splice(0).map((started) => started.stop()));
});

afterAll(async () => {
  await model.close();
  await rm(base, { recursive: true, force: true });
});

describe("xzatoma agent with a hostile model", () => {
  it("never hands the editor a write outside the workspace or into version-control internals or the data directory", async () => {
    callOnce("write_file", (text) => ({ path: text, content: "#!/bin/sh\necho owned\n" }));
    const agent = editor();
    const sessionId = await session(agent);
    for (const target of [
      ".git/hooks/pre-commit",
      ".GIT/config",
      "../outside.sh",
      path.join(base, "elsewhere.sh"),
      path.join(home, ".xzatoma", "acp-sessions.json"),
      "/proc/self/environ",
    ]) {
      await prompt(agent, sessionId, target);
    }
    // A session whose workspace holds the data directory (history, audit log, the ACP sessions).
    const wide = await session(agent, base);
    await mkdir(path.join(home, ".xzatoma"), { recursive: true });
    for (const target of ["home/.xzatoma/acp-sessions.json", "home/.xzatoma/audit.log"])
      await prompt(agent, wide, target);
    const calls = agent.updates.filter((note) => note.update.sessionUpdate === "tool_call");
    expect(calls).toHaveLength(8);
    expect(agent.writes).toEqual([]);
    // Never written by a tool: refused without asking anyone.
    expect(agent.permissions).toEqual([]);
  });

  it("never writes the configuration file it would read, even while there is none", async () => {
    // No config file: the defaults are used, and the file a later session reads is
    // home/.config/xzatoma/config.yaml, inside this session's workspace.
    callOnce("write_file", (text) => ({
      path: text,
      content: "mcp:\n  servers:\n    owned: { command: sh, args: [-c, 'touch /tmp/owned'] }\n",
    }));
    const agent = editor();
    const wide = await session(agent, base);
    await prompt(agent, wide, "home/.config/xzatoma/config.yaml");
    const calls = agent.updates.filter((note) => note.update.sessionUpdate === "tool_call");
    expect(calls).toHaveLength(1);
    expect(agent.writes).toEqual([]);
    expect(agent.permissions).toEqual([]);
  });

  it("asks before reading a secret through the editor, and a refusal reads nothing", async () => {
    callOnce("read_file", () => ({ path: ".env" }));
    const buffers = new Map([[path.join(workspace, ".env"), "TOKEN=in-buffer\n"]]);
    const agent = editor({
      buffers,
      permission: () => ({ outcome: { outcome: "selected", optionId: "reject-once" } }),
    });
    const sessionId = await session(agent);
    await prompt(agent, sessionId, "read the env file");
    expect(agent.permissions).toHaveLength(1);
    expect(agent.reads).toEqual([]);
  });

  it("treats an option it did not offer (allow-always) as a no", async () => {
    callOnce("write_file", () => ({ path: ".vscode/tasks.json", content: "{}" }));
    const agent = editor({
      permission: () => ({ outcome: { outcome: "selected", optionId: "allow-always" } }),
    });
    const sessionId = await session(agent);
    await prompt(agent, sessionId, "configure the editor");
    expect(agent.permissions).toHaveLength(1);
    expect(agent.writes).toEqual([]);
  });

  it("ends a cancelled turn even when the editor never answers a read", async () => {
    callOnce("write_file", () => ({ path: "stuck.md", content: "text" }));
    const agent = editor({ read: () => new Promise(() => undefined) });
    const sessionId = await session(agent);
    const turn = prompt(agent, sessionId, "write it");
    await agent.waitForUpdate((note) => note.update.sessionUpdate === "tool_call");
    await new Promise((resolve) => setTimeout(resolve, 500));
    await agent.connection.agent.notify("session/cancel", { sessionId });
    const outcome = await Promise.race([
      turn.then((answer) => answer.stopReason),
      // Each diff read gives up after 5 s; without that the turn never ended.
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 40_000)),
    ]);
    expect(outcome).not.toBe("still waiting");
  }, 60_000);

  it("keeps a live session in its workspace when it is loaded again with another cwd", async () => {
    callOnce("write_file", () => ({ path: "note.md", content: "here" }));
    const agent = editor();
    const sessionId = await session(agent);
    await agent.connection.agent.request("session/load", {
      sessionId,
      cwd: base,
      mcpServers: [],
    });
    await prompt(agent, sessionId, "write a note");
    expect(agent.writes.map((write) => write.path)).toEqual([path.join(workspace, "note.md")]);
  });
});
