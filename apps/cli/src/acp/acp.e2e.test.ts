// `xzatoma agent` as an editor meets it: the built CLI spawned and driven through the ACP
// SDK's client side, with a scripted Ollama server as the model.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
  type ScriptedTurn,
} from "@xzatoma/scripted-servers/ollama";
import { agentText, initialize, startEditor, type TestEditor } from "./acp.test-support.js";

let base: string;
let workspace: string;
let home: string;
let model: ScriptedOllama;
/** The scripted model's next answers; each test sets its own. */
let script: (request: OllamaChatRequest, index: number) => ScriptedTurn;
const editors: TestEditor[] = [];

const lastUser = (request: OllamaChatRequest) =>
  request.messages.findLast((message) => message.role === "user")?.content ?? "";
const lastMessage = (request: OllamaChatRequest) => request.messages.at(-1);

function editor(options: Omit<Parameters<typeof startEditor>[0], "cwd" | "env"> = {}) {
  const started = startEditor({
    cwd: base,
    env: { PATH: process.env["PATH"] ?? "", HOME: home, OLLAMA_HOST: model.url },
    ...options,
  });
  editors.push(started);
  return started;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-acp-")));
  workspace = path.join(base, "project");
  home = path.join(base, "home");
  await mkdir(home, { recursive: true });
  await mkdir(workspace, { recursive: true });
  model = await startScriptedOllama({ scenario: (request, index) => script(request, index) });
});

afterEach(async () => {
  await Promise.all(editors.splice(0).map((started) => started.stop()));
});

afterAll(async () => {
  await model.close();
  await rm(base, { recursive: true, force: true });
});

describe("xzatoma agent speaks ACP over stdio", () => {
  it("initializes, refuses a relative cwd, and streams a prompt turn as message chunks", async () => {
    script = (request) => ({ content: `You said: ${lastUser(request)} and nothing else` });
    const agent = editor();
    const init = await initialize(agent);
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.authMethods).toEqual([]);
    await expect(
      agent.connection.agent.request("session/new", { cwd: "project", mcpServers: [] }),
    ).rejects.toThrow(/cwd 'project' is relative/);
    const session = await agent.connection.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [],
    });
    expect(session.modes?.availableModes.map((mode) => mode.id)).toEqual(["planning", "write"]);
    const response = await agent.connection.agent.request("session/prompt", {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text: "hello there" }],
    });
    expect(response.stopReason).toBe("end_turn");
    const chunks = agent.updates.filter(
      (note) => note.update.sessionUpdate === "agent_message_chunk",
    );
    expect(chunks.length).toBeGreaterThan(3);
    expect(agentText(agent, session.sessionId)).toBe("You said: hello there and nothing else");
    // Delegation is offered in an editor session, as in chat.
    const offered = model.requests.at(-1)?.tools?.map((tool) => tool.function.name) ?? [];
    expect(offered).toEqual(expect.arrayContaining(["subagent", "parallel_subagent"]));
    // Standard output held protocol messages only: every line parsed as JSON-RPC.
    expect(agent.lines.every((line) => (line as { jsonrpc?: string }).jsonrpc === "2.0")).toBe(
      true,
    );
  });

  it("asks permission for a call that needs a yes: granted it writes, denied it does not and the model is told", async () => {
    // A hidden file: changing one needs a person (an ordinary file would change unasked).
    const file = path.join(workspace, ".notes");
    await writeFile(file, "old\n");
    script = (request) => {
      const last = lastMessage(request);
      if (last?.role === "tool") return { content: `Tool said: ${last.content}` };
      const words = lastUser(request).split(" ");
      return {
        toolCalls: [
          { name: "write_file", arguments: { path: ".notes", content: `${words.at(-1)}\n` } },
        ],
      };
    };
    let allow = true;
    const agent = editor({
      permission: (request) => ({
        outcome: {
          outcome: "selected",
          optionId: request.options.find(
            (option) => option.kind === (allow ? "allow_once" : "reject_once"),
          )!.optionId,
        },
      }),
    });
    await initialize(agent);
    const { sessionId } = await agent.connection.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [],
    });
    await agent.connection.agent.request("session/set_mode", { sessionId, modeId: "write" });
    const granted = await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "overwrite with granted" }],
    });
    expect(granted.stopReason).toBe("end_turn");
    expect(await readFile(file, "utf8")).toBe("granted\n");
    expect(agent.permissions).toHaveLength(1);
    const asked = agent.permissions[0]!;
    expect(asked.options.map((option) => option.kind)).toEqual(["allow_once", "reject_once"]);
    expect(asked.toolCall.kind).toBe("edit");
    expect(asked.toolCall.locations).toEqual([{ path: file }]);
    const call = agent.updates.find((note) => note.update.sessionUpdate === "tool_call");
    expect(call?.update).toMatchObject({
      kind: "edit",
      status: "pending",
      rawInput: { path: ".notes", content: "granted\n" },
      locations: [{ path: file }],
    });
    const completed = agent.updates.find(
      (note) =>
        note.update.sessionUpdate === "tool_call_update" && note.update.status === "completed",
    );
    // The editor's diff view gets the change.
    expect(completed?.update).toMatchObject({
      content: [{ type: "diff", path: file, oldText: "old\n", newText: "granted\n" }, {}],
    });

    allow = false;
    const denied = await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "overwrite with denied" }],
    });
    expect(denied.stopReason).toBe("end_turn");
    expect(await readFile(file, "utf8")).toBe("granted\n");
    expect(agent.permissions).toHaveLength(2);
    const told = lastMessage(model.requests.at(-1)!);
    expect(told?.role).toBe("tool");
    expect(told?.content).toContain("rejected this call in the editor");
    expect(
      agent.updates.some(
        (note) =>
          note.update.sessionUpdate === "tool_call_update" && note.update.status === "failed",
      ),
    ).toBe(true);
  });

  it("refuses the call when the permission request fails or the turn is cancelled while it waits", async () => {
    const file = path.join(workspace, ".guarded");
    await writeFile(file, "original\n");
    script = (request) => {
      const last = lastMessage(request);
      if (last?.role === "tool") return { content: `Tool said: ${last.content}` };
      return {
        toolCalls: [{ name: "write_file", arguments: { path: ".guarded", content: "changed\n" } }],
      };
    };
    let mode: "fail" | "hang" = "fail";
    const agent = editor({
      permission: (_request, signal) => {
        if (mode === "fail") throw new Error("the editor could not show the prompt");
        // Never answered: only the cancellation ends it.
        return new Promise((resolve) =>
          signal.addEventListener("abort", () => resolve({ outcome: { outcome: "cancelled" } })),
        );
      },
    });
    await initialize(agent);
    const { sessionId } = await agent.connection.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [],
    });
    await agent.connection.agent.request("session/set_mode", { sessionId, modeId: "write" });
    const failed = await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "change it" }],
    });
    expect(failed.stopReason).toBe("end_turn");
    expect(lastMessage(model.requests.at(-1)!)?.content).toContain("Asking the editor failed");
    expect(await readFile(file, "utf8")).toBe("original\n");

    mode = "hang";
    const asked = agent.permissions.length;
    const pending = agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "change it again" }],
    });
    await expect.poll(() => agent.permissions.length).toBe(asked + 1);
    await agent.connection.agent.notify("session/cancel", { sessionId });
    expect((await pending).stopReason).toBe("cancelled");
    expect(await readFile(file, "utf8")).toBe("original\n");
  });

  it("in planning mode a write is refused without asking", async () => {
    script = (request) =>
      lastMessage(request)?.role === "tool"
        ? { content: "understood" }
        : { toolCalls: [{ name: "write_file", arguments: { path: "plan.txt", content: "x" } }] };
    const agent = editor();
    await initialize(agent);
    const { sessionId, modes } = await agent.connection.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [],
    });
    expect(modes?.currentModeId).toBe("planning");
    await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "write a plan file" }],
    });
    expect(agent.permissions).toHaveLength(0);
    await expect(readFile(path.join(workspace, "plan.txt"), "utf8")).rejects.toThrow();
  });

  it("cancels a turn mid-stream: the prompt returns cancelled promptly", async () => {
    // Sixty words, one every 500 ms: half a minute unless the turn is cancelled.
    script = () => ({
      content: Array.from({ length: 60 }, (_, index) => `word${index}`).join(" "),
      chunkDelayMs: 500,
    });
    const agent = editor();
    await initialize(agent);
    const { sessionId } = await agent.connection.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [],
    });
    const started = Date.now();
    const prompt = agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "talk for a long time" }],
    });
    await agent.waitForUpdate((note) => note.update.sessionUpdate === "agent_message_chunk");
    await agent.connection.agent.notify("session/cancel", { sessionId });
    const response = await prompt;
    expect(response.stopReason).toBe("cancelled");
    expect(agentText(agent, sessionId)).not.toContain("word59");
    // Loose: well under the half minute the full answer takes.
    expect(Date.now() - started).toBeLessThan(20_000);
    // The session takes the next prompt.
    script = () => ({ content: "after the cancel" });
    const next = await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "still there?" }],
    });
    expect(next.stopReason).toBe("end_turn");
  }, 60_000);

  it("loads a session after the agent restarts: the conversation is replayed and continues", async () => {
    script = (request) => ({
      content: `Turn ${request.messages.filter((message) => message.role === "user").length}: ${lastUser(request)}`,
    });
    const first = editor();
    await initialize(first);
    const { sessionId } = await first.connection.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [],
    });
    await first.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "remember the number 42" }],
    });
    expect(await first.stop()).toBe(0);

    const second = editor();
    await initialize(second);
    await second.connection.agent.request("session/load", {
      sessionId,
      cwd: workspace,
      mcpServers: [],
    });
    const replayed = second.updates.map((note) => note.update);
    expect(replayed).toContainEqual({
      sessionUpdate: "user_message_chunk",
      content: { type: "text", text: "remember the number 42" },
    });
    expect(replayed).toContainEqual({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "Turn 1: remember the number 42" },
    });
    const before = second.updates.length;
    await second.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "which number?" }],
    });
    const sent = model.requests.at(-1)!;
    expect(sent.messages.map((message) => message.content)).toContain("remember the number 42");
    const continued = second.updates
      .slice(before)
      .map((note) =>
        note.update.sessionUpdate === "agent_message_chunk" && note.update.content.type === "text"
          ? note.update.content.text
          : "",
      )
      .join("");
    expect(continued).toBe("Turn 2: which number?");
    await expect(
      second.connection.agent.request("session/load", {
        sessionId: "no-such-session",
        cwd: workspace,
        mcpServers: [],
      }),
    ).rejects.toThrow();
  }, 60_000);

  it("maps a run's limit to max_turn_requests and takes text, links and embedded resources", async () => {
    script = (request) => ({
      toolCalls: [{ name: "list_directory", arguments: { path: "." } }],
      content: `seen: ${lastUser(request).length}`,
    });
    const agent = editor({ args: ["--max-turns", "2"] });
    await initialize(agent);
    const { sessionId } = await agent.connection.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [],
    });
    const looping = await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "look at" },
        { type: "resource_link", name: "notes", uri: `file://${workspace}/notes.txt` },
        {
          type: "resource",
          resource: { uri: `file://${workspace}/snippet.ts`, text: "const answer = 42;" },
        },
      ],
    });
    expect(looping.stopReason).toBe("max_turn_requests");
    const sent = lastUser(model.requests.at(-1)!);
    expect(sent).toContain("look at");
    expect(sent).toContain(`[notes](file://${workspace}/notes.txt)`);
    expect(sent).toContain("const answer = 42;");
    const listed = agent.updates.find((note) => note.update.sessionUpdate === "tool_call");
    expect(listed?.update).toMatchObject({ kind: "search", title: "list_directory ." });
    await expect(
      agent.connection.agent.request("session/prompt", {
        sessionId,
        prompt: [{ type: "image", mimeType: "image/png", data: "AAAA" }],
      }),
    ).rejects.toThrow(/does not accept image content/);
  });

  it("answers malformed JSON-RPC with an error and keeps running", async () => {
    script = () => ({ content: "still here" });
    const agent = editor();
    await initialize(agent);
    agent.child.stdin!.write("{this is not json\n");
    agent.child.stdin!.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 9001, method: "session/prompt", params: { nope: true } })}\n`,
    );
    await expect
      .poll(() => agent.lines.filter((line) => (line as { error?: unknown }).error !== undefined))
      .toHaveLength(2);
    const errors = agent.lines.filter(
      (line) => (line as { error?: unknown }).error !== undefined,
    ) as { id: unknown; error: { code: number } }[];
    expect(errors[0]).toMatchObject({ id: null, error: { code: -32700 } });
    expect(errors[1]).toMatchObject({ id: 9001, error: { code: -32602 } });
    const { sessionId } = await agent.connection.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [],
    });
    const response = await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "are you alive?" }],
    });
    expect(response.stopReason).toBe("end_turn");
    expect(agentText(agent, sessionId)).toBe("still here");
  });

  it("reads and writes files through the editor when it offers fs: the model sees the unsaved buffer", async () => {
    const draft = path.join(workspace, "draft.md");
    await writeFile(draft, "saved on disk\n");
    await writeFile(path.join(base, "outside.txt"), "secret outside\n");
    const buffers = new Map([[draft, "UNSAVED BUFFER TEXT\n"]]);
    script = (request, index) => {
      const last = lastMessage(request);
      if (last?.role === "tool") {
        if (lastUser(request).includes("outside")) return { content: `outside: ${last.content}` };
        if (lastUser(request).includes("create")) return { content: "created" };
        return { content: `I read: ${last.content}` };
      }
      if (lastUser(request).includes("outside"))
        return { toolCalls: [{ name: "read_file", arguments: { path: "../outside.txt" } }] };
      if (lastUser(request).includes("create"))
        return {
          toolCalls: [{ name: "write_file", arguments: { path: "made.md", content: "new" } }],
        };
      return index >= 0
        ? { toolCalls: [{ name: "read_file", arguments: { path: "draft.md" } }] }
        : { content: "" };
    };
    const agent = editor({ buffers });
    await initialize(agent, { fs: { readTextFile: true, writeTextFile: true } });
    const { sessionId } = await agent.connection.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [],
    });
    await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "read the draft" }],
    });
    expect(agent.reads.map((read) => read.path)).toEqual([draft]);
    const reads = agent.reads.length;
    expect(agentText(agent, sessionId)).toContain("I read: UNSAVED BUFFER TEXT");

    await agent.connection.agent.request("session/set_mode", { sessionId, modeId: "write" });
    await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "create a file" }],
    });
    expect(agent.writes).toEqual([
      { sessionId, path: path.join(workspace, "made.md"), content: "new" },
    ]);
    // The diff card shows the new buffer (read back through the editor).
    expect(agent.updates.map((note) => note.update)).toContainEqual(
      expect.objectContaining({
        sessionUpdate: "tool_call_update",
        status: "completed",
        content: [
          { type: "diff", path: path.join(workspace, "made.md"), oldText: null, newText: "new" },
          expect.anything(),
        ],
      }),
    );

    // The path guard stands in front of the editor: nothing outside the workspace is asked for.
    await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "read outside" }],
    });
    expect(agent.reads.slice(reads).map((read) => read.path)).toEqual([
      path.join(workspace, "made.md"),
      path.join(workspace, "made.md"),
    ]);
    expect(agentText(agent, sessionId)).not.toContain("secret outside");
  });
});
