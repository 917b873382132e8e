// Skills and custom commands in `xzatoma chat`, in a real terminal (tmux): `/skills` lists
// what the session offers, `/NAME ARGS` of a custom command sends its prompt, and
// `/SKILL ARGS` loads a skill.
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { startScriptedOllama, type ScriptedOllama } from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChatInTmux } from "./chat-terminal.test-support.js";
import { killSession, terminalSession } from "./terminal.test-support.js";
import { makeTestDirectories } from "./workspace.test-support.js";
const SESSION = `xz-chat-skills-${process.pid}`;

const { waitFor, type } = terminalSession(() => SESSION);

let base: string;
let server: ScriptedOllama;

beforeAll(async () => {
  const directories = await makeTestDirectories("xz-chat-skills-");
  ({ base } = directories);
  const { workspace, home } = directories;
  await mkdir(path.join(workspace, ".git"));
  await mkdir(path.join(home, ".xzatoma", "skills", "release"), { recursive: true });
  await writeFile(
    path.join(home, ".xzatoma", "skills", "release", "SKILL.md"),
    "---\nname: release\ndescription: Cut a release of the project.\n---\nTag it.\n",
  );
  await mkdir(path.join(home, ".xzatoma", "commands"), { recursive: true });
  await writeFile(
    path.join(home, ".xzatoma", "commands", "greet.md"),
    "---\ndescription: Greet someone\n---\nSay hello to $1.\n",
  );
  server = await startScriptedOllama({
    scenario: (request) => {
      const text = request.messages.findLast((m) => m.role === "user")?.content ?? "";
      return { content: text.startsWith("Say hello to") ? `Got: ${text}` : "ok" };
    },
  });
  startChatInTmux({ session: SESSION, home, args: ["--host", server.url, "-w", workspace] });
});

afterAll(async () => {
  killSession(SESSION);
  await server.close();
  await rm(base, { recursive: true, force: true });
});

describe("skills and custom commands in chat", () => {
  it("/skills lists the skill and the command the session offers", async () => {
    await waitFor((text) => text.includes(">>> "), "the prompt");
    type("/skills");
    const text = await waitFor((t) => t.includes("/greet (user)"), "the /skills list");
    expect(text).toContain("release (user): Cut a release of the project.");
    expect(text).toContain("/greet (user): Greet someone");
  });

  it("/greet Ada sends the command's prompt to the model", async () => {
    type("/greet Ada");
    await waitFor((text) => text.includes("Got: Say hello to Ada."), "the answer");
    const last = server.requests.at(-1)?.messages.findLast((m) => m.role === "user");
    expect(last?.content).toBe("Say hello to Ada.");
  });

  it("/release v2 loads the skill with the rest as the request", async () => {
    const before = server.requests.length;
    type("/release v2");
    await waitFor(() => server.requests.length > before, "the request");
    const last = server.requests.at(-1)?.messages.findLast((m) => m.role === "user");
    expect(last?.content).toContain("Tag it.");
    expect(last?.content).toContain("v2");
  });
});
