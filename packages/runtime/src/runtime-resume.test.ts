// AgentRuntime.resume: a chat continues in another stored conversation (a fork) in place of
// the one it was in; the model is sent the fork's messages, new messages are stored in the
// fork only, and the checkpoints of its next turn continue the fork's numbering.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startScriptedOpenAI, type ScriptedOpenAI } from "@xzatoma/scripted-servers/openai";
import { openHistory } from "@xzatoma/persistence";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentRuntime } from "./agent-runtime.js";
import { resolveRuntimeConfig } from "./resolve-config.js";

let home: string;
let workspace: string;
let server: ScriptedOpenAI | undefined;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xz-resume-home-"));
  workspace = await mkdtemp(path.join(os.tmpdir(), "xz-resume-ws-"));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(home, { recursive: true, force: true });
  await rm(workspace, { recursive: true, force: true });
});

const userTexts = (messages: readonly { role: string; content?: unknown }[]) =>
  messages.filter((message) => message.role === "user").map((message) => message.content);

describe("AgentRuntime.resume", () => {
  it("continues a stored conversation in place of the current one", async () => {
    server = await startScriptedOpenAI({
      scenario: (request) => {
        const last = request.messages.findLast((message) => message.role === "user");
        const text = typeof last?.content === "string" ? last.content : "";
        if (text === "write it" && request.messages.at(-1)?.role === "user")
          return {
            toolCalls: [{ name: "write_file", arguments: { path: "x.txt", content: "x" } }],
          };
        return { content: `ok: ${text}` };
      },
      apiKey: "sk-test",
      models: ["scripted-1"],
    });
    const config = resolveRuntimeConfig(
      {
        provider: { type: "openai", openai: { base_url: server.url, model: "scripted-1" } },
        agent: { terminal: { sandbox: false } },
        persistence: { data_dir: path.join(home, "data") },
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
      },
    );
    await runtime.run("first");
    await runtime.run("second");
    const original = runtime.conversationId ?? "";
    // A fork holding the first exchange only, as a rewind to before turn 2 makes it.
    const history = openHistory({ path: config.persistence.db_path });
    const stored = history.getConversation(original);
    const fork = history.createConversation({ title: "fork", provider: "openai", model: "m" });
    history.appendMessages(
      fork.id,
      (stored?.messages ?? []).slice(0, 2).map((entry) => ({ message: entry.message })),
    );
    history.close();

    runtime.resume(fork.id);
    expect(runtime.conversationId).toBe(fork.id);
    expect(userTexts(runtime.messages)).toEqual(["first"]);
    await runtime.run("write it");
    const sent = server.chatRequests.at(-1)?.messages ?? [];
    expect(userTexts(sent)).toEqual(["first", "write it"]);
    expect(() => runtime.resume("01NOSUCHCONVERSATION000000")).toThrow(/No stored conversation/);
    await runtime.close();

    const after = openHistory({ path: config.persistence.db_path });
    expect(
      userTexts(after.getConversation(original)?.messages.map((m) => m.message) ?? []),
    ).toEqual(["first", "second"]);
    expect(userTexts(after.getConversation(fork.id)?.messages.map((m) => m.message) ?? [])).toEqual(
      ["first", "write it"],
    );
    after.close();
    // The fork had one answer, so its next turns are numbered from 2 in its own index.
    const index = await readFile(
      path.join(config.persistence.data_dir, "checkpoints", "index", `${fork.id}.jsonl`),
      "utf8",
    );
    const lines = index
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; turn: number; path?: string });
    expect(lines.find((line) => line.type === "before")).toMatchObject({ turn: 2, path: "x.txt" });
  });
});
