// Skills and custom commands over ACP: the built `xzatoma agent` offers them to the editor
// as commands (`available_commands_update`) and runs `/name args` prompts, with a scripted
// Ollama server as the model.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { initialize, startEditor, type TestEditor } from "./acp.test-support.js";

let base: string;
let workspace: string;
let home: string;
let model: ScriptedOllama;
const editors: TestEditor[] = [];

const lastUser = (request: OllamaChatRequest | undefined) =>
  request?.messages.findLast((message) => message.role === "user")?.content ?? "";

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-acp-commands-")));
  workspace = path.join(base, "project");
  home = path.join(base, "home");
  await mkdir(workspace, { recursive: true });
  await mkdir(path.join(home, ".xzatoma", "skills", "release-notes"), { recursive: true });
  await writeFile(
    path.join(home, ".xzatoma", "skills", "release-notes", "SKILL.md"),
    "---\nname: release-notes\ndescription: Writes release notes from the changelog\n---\nRELEASE-SKILL-BODY: group the changes by package.\n",
  );
  await mkdir(path.join(home, ".xzatoma", "commands", "git"), { recursive: true });
  await writeFile(
    path.join(home, ".xzatoma", "commands", "greet.md"),
    "---\ndescription: Greets someone by name\n---\nGREET-TEMPLATE: say hello to $1, then mention $ARGUMENTS.\n",
  );
  await writeFile(
    path.join(home, ".xzatoma", "commands", "git", "summary.md"),
    "Summarise the last $1 commits.\n",
  );
  model = await startScriptedOllama({ scenario: () => ({ content: "done" }) });
});

afterEach(async () => {
  await Promise.all(editors.splice(0).map((started) => started.stop()));
});

afterAll(async () => {
  await model.close();
  await rm(base, { recursive: true, force: true });
});

describe("xzatoma agent offers skills and custom commands", () => {
  it("lists them in available_commands_update and runs /command args and /skill args", async () => {
    const agent = startEditor({
      cwd: base,
      env: { PATH: process.env["PATH"] ?? "", HOME: home, OLLAMA_HOST: model.url },
    });
    editors.push(agent);
    await initialize(agent);
    const { sessionId } = await agent.connection.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [],
    });
    const update = await agent.waitForUpdate(
      (note) =>
        note.sessionId === sessionId && note.update.sessionUpdate === "available_commands_update",
    );
    if (update.update.sessionUpdate !== "available_commands_update")
      throw new Error("not a commands update");
    const offered = update.update.availableCommands;
    expect(offered.map((command) => command.name).sort()).toEqual([
      "git:summary",
      "greet",
      "release-notes",
    ]);
    expect(offered.find((command) => command.name === "greet")?.description).toBe(
      "Greets someone by name",
    );
    expect(offered.find((command) => command.name === "release-notes")?.description).toContain(
      "Writes release notes from the changelog",
    );

    const before = model.requests.length;
    const greeted = await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "/greet Ada the new release" }],
    });
    expect(greeted.stopReason).toBe("end_turn");
    const greeting = lastUser(model.requests[before]);
    expect(greeting).toContain(
      "GREET-TEMPLATE: say hello to Ada, then mention Ada the new release.",
    );
    expect(greeting).not.toContain("/greet");

    const next = model.requests.length;
    await agent.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "/release-notes for version 2.0" }],
    });
    const skilled = lastUser(model.requests[next]);
    expect(skilled).toContain("RELEASE-SKILL-BODY: group the changes by package.");
    expect(skilled).toContain("for version 2.0");
  });
});
