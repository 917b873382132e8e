import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  startScriptedOpenAI,
  type ChatScenario,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import { openHistory } from "@xzatoma/persistence";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentRuntime, type AgentRuntimeOptions } from "./agent-runtime.js";
import { resolveRuntimeConfig } from "./resolve-config.js";
import type { RuntimeIO } from "./runtime-io.js";

let home: string;
let workspace: string;
let server: ScriptedOpenAI | undefined;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xz-runtime-home-"));
  workspace = await mkdtemp(path.join(os.tmpdir(), "xz-runtime-ws-"));
  await writeFile(path.join(workspace, "notes.txt"), "the answer is 42\n");
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(home, { recursive: true, force: true });
  await rm(workspace, { recursive: true, force: true });
});

async function startModel(scenario: ChatScenario): Promise<string> {
  server = await startScriptedOpenAI({ scenario, apiKey: "sk-test", models: ["scripted-1"] });
  return server.url;
}

function configFor(baseUrl: string, extra: Record<string, unknown> = {}) {
  return resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: baseUrl, model: "scripted-1" } },
      agent: { terminal: { sandbox: false } },
      persistence: { data_dir: path.join(home, "data") },
      ...extra,
    },
    { homeDir: home, env: {} },
  );
}

const quietIO = (warnings: string[] = []): RuntimeIO => ({
  warn: (message) => warnings.push(message),
});

function options(overrides: Partial<AgentRuntimeOptions> = {}): AgentRuntimeOptions {
  return {
    workspace,
    modes: { chatMode: "write", approvalPolicy: "never" },
    env: { OPENAI_API_KEY: "sk-test" },
    ...overrides,
  };
}

/** Reads notes.txt, then answers with what the tool returned. */
const readThenAnswer: ChatScenario = (request, index) =>
  index === 0
    ? { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] }
    : {
        content: `Found: ${request.messages.findLast((m) => m.role === "tool")?.content ?? ""}`,
      };

describe("createAgentRuntime", () => {
  it("runs a prompt with the configured provider, tools and history", async () => {
    const url = await startModel(readThenAnswer);
    const events: string[] = [];
    const runtime = await createAgentRuntime(
      configFor(url),
      { ...quietIO(), render: (event) => events.push(event.type) },
      options(),
    );
    const result = await runtime.run("What is in notes.txt?");
    await runtime.close();

    expect(result.stopReason).toBe("completed");
    expect(result.text).toContain("the answer is 42");
    expect(events).toContain("tool-result");
    expect(events.at(-1)).toBe("finished");
    // History was recorded by the persistence listener, in the configured data directory.
    const history = openHistory({ path: path.join(home, "data", "history.db") });
    try {
      const stored = history.getConversation(runtime.conversationId ?? "missing");
      expect(stored?.messages.map((entry) => entry.message.role)).toEqual([
        "user",
        "assistant",
        "tool",
        "assistant",
      ]);
    } finally {
      history.close();
    }
  });

  it("records into a history store the caller keeps open, and leaves it open when it closes", async () => {
    const url = await startModel(() => ({ content: "done" }));
    const store = openHistory({ path: path.join(home, "data", "shared.db") });
    try {
      const ids: string[] = [];
      for (const prompt of ["first", "second"]) {
        const runtime = await createAgentRuntime(
          configFor(url),
          quietIO(),
          options({ history: { store, title: () => prompt } }),
        );
        await runtime.run(prompt);
        await runtime.close();
        ids.push(runtime.conversationId ?? "missing");
      }
      // Still open after both runtimes closed, holding both conversations.
      expect(ids.map((id) => store.getConversation(id)?.title)).toEqual(["first", "second"]);
    } finally {
      store.close();
    }
  });

  it("refuses a call that needs a yes when the front end cannot ask anyone", async () => {
    const url = await startModel((request, index) =>
      index === 0
        ? { toolCalls: [{ name: "terminal", arguments: { command: "touch out.txt" } }] }
        : { content: `Done: ${request.messages.findLast((m) => m.role === "tool")?.content}` },
    );
    const runtime = await createAgentRuntime(configFor(url), quietIO(), options());
    const result = await runtime.run("create out.txt");
    await runtime.close();
    await expect(readFile(path.join(workspace, "out.txt"), "utf8")).rejects.toThrow();
    // The test's configuration has no sandbox: a command that is not provably read-only
    // needs a person, and nobody is asked.
    expect(result.text).toContain("no working sandbox");
    expect(result.text).toContain("no one is asked here");
    const audit = await readFile(path.join(home, "data", "audit.log"), "utf8");
    expect(audit).toContain("touch out.txt");
  });

  it("asks the person through io.ask, and only that answer counts as a person's", async () => {
    const url = await startModel((_request, index) =>
      index === 0
        ? { toolCalls: [{ name: "terminal", arguments: { command: "touch out.txt" } }] }
        : { content: "written" },
    );
    const asked: string[] = [];
    const runtime = await createAgentRuntime(
      configFor(url),
      {
        ...quietIO(),
        ask: async (request) => {
          asked.push(request.toolName);
          return { approved: true, reason: "the person said yes" };
        },
      },
      options({ modes: { chatMode: "write", approvalPolicy: "untrusted" } }),
    );
    const result = await runtime.run("write out.txt");
    await runtime.close();
    expect(result.stopReason).toBe("completed");
    expect(asked).toEqual(["terminal"]);
    expect(await readFile(path.join(workspace, "out.txt"), "utf8")).toBe("");
  });

  it("keeps one conversation across runs and mode switches, and counts its tokens", async () => {
    const url = await startModel((request) => ({
      content: `seen ${request.messages.filter((m) => m.role === "user").length} user messages`,
    }));
    const runtime = await createAgentRuntime(configFor(url), quietIO(), options());
    await runtime.run("one");
    const afterOne = runtime.status().usage.totalTokens;
    runtime.setMode("planning");
    expect(runtime.status().tools).not.toContain("write_file");
    const second = await runtime.run("two");
    await runtime.close();
    expect(second.text).toBe("seen 2 user messages");
    expect(afterOne).toBeGreaterThan(0);
    expect(runtime.status().usage.totalTokens).toBeGreaterThan(afterOne);
  });

  it("refuses a model the provider does not have, and keeps the current one", async () => {
    const url = await startModel(() => ({ content: "ok" }));
    const runtime = await createAgentRuntime(configFor(url), quietIO(), options());
    await expect(runtime.setModel("missing-x")).rejects.toMatchObject({ code: "MODEL_NOT_FOUND" });
    expect(runtime.model).toBe("scripted-1");
    await runtime.close();
  });

  it("resumes a stored conversation, and names one that does not exist", async () => {
    const url = await startModel((request) => ({
      content: `seen ${request.messages.filter((m) => m.role === "user").length}`,
    }));
    const first = await createAgentRuntime(configFor(url), quietIO(), options());
    await first.run("remember this");
    await first.close();
    const id = first.conversationId ?? "";
    const resumed = await createAgentRuntime(
      configFor(url),
      quietIO(),
      options({ history: { resume: id } }),
    );
    expect((await resumed.run("and this")).text).toBe("seen 2");
    expect(resumed.conversationId).toBe(id);
    await resumed.close();
    await expect(
      createAgentRuntime(configFor(url), quietIO(), options({ history: { resume: "nope" } })),
    ).rejects.toMatchObject({ code: "CONVERSATION_NOT_FOUND" });
  });

  it("keeps the configuration file unwritable without making the workspace that holds it unwritable", async () => {
    /** Writes each path in turn, then answers with what every write said. */
    const writeAll =
      (paths: string[]): ChatScenario =>
      (request, index) =>
        index < paths.length
          ? {
              toolCalls: [
                { name: "write_file", arguments: { path: paths[index]!, content: "x: 1\n" } },
              ],
            }
          : {
              content: request.messages
                .filter((m) => m.role === "tool")
                .map((m) => m.content)
                .join("\n"),
            };
    const url = await startModel(
      writeAll(["out.txt", "xzatoma.yaml", "conf/other.yaml", "conf/project.yaml"]),
    );
    await writeFile(path.join(workspace, "xzatoma.yaml"), "agent: {}\n");
    await mkdir(path.join(workspace, "conf"));
    await writeFile(path.join(workspace, "conf", "project.yaml"), "agent: {}\n");
    // A configuration at the workspace's root: the file is protected, its directory is not.
    const atRoot = await createAgentRuntime(
      configFor(url),
      quietIO(),
      options({ configPath: path.join(workspace, "xzatoma.yaml") }),
    );
    const text = (await atRoot.run("write")).text.split("\n");
    await atRoot.close();
    expect(text[0]).toMatch(/^Created out\.txt/);
    expect(text[1]).toContain("'xzatoma.yaml' is protected: it belongs to XZatoma itself");
    expect(await readFile(path.join(workspace, "xzatoma.yaml"), "utf8")).toBe("agent: {}\n");
    expect(text[2]).toMatch(/^Created conf\/other\.yaml/);
    expect(text[3]).not.toContain("belongs to XZatoma itself");
    // A configuration in a directory of its own: that directory is protected as a whole.
    await server?.close();
    const url2 = await startModel(writeAll(["conf/another.yaml", "elsewhere.txt"]));
    const inConf = await createAgentRuntime(
      configFor(url2),
      quietIO(),
      options({ configPath: path.join(workspace, "conf", "project.yaml") }),
    );
    const second = (await inConf.run("write")).text.split("\n");
    await inConf.close();
    expect(second[0]).toContain("'conf/another.yaml' is protected: it belongs to XZatoma itself");
    expect(second[1]).toMatch(/^Created elsewhere\.txt/);
  });
});
