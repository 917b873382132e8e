// Resuming a conversation in a real terminal: `xzatoma chat` in tmux against the scripted
// Ollama server. `--continue` takes this project's newest conversation, `--resume` without an
// id offers this project's in a picker, a resumed conversation opens with a recap of what was
// said and the files it changed, and one from another directory moves only after a yes.
import { mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
  type ScriptedTurn,
} from "@xzatoma/scripted-servers/ollama";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startChatInTmux } from "./chat-terminal.test-support.js";
import { runCli } from "./cli.test-support.js";
import { killSession, terminalSession, tmux } from "./terminal.test-support.js";

function scenario(request: OllamaChatRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  if (last?.role === "tool") return { content: "Wrote it." };
  const text = request.messages.findLast((message) => message.role === "user")?.content ?? "";
  if (text.startsWith("write "))
    return {
      toolCalls: [
        { name: "write_file", arguments: { path: text.slice(6).trim(), content: "kept\n" } },
      ],
    };
  return { content: `Noted: ${text}.` };
}

let base: string;
let project: string;
let elsewhere: string;
let home: string;
let server: ScriptedOllama;
let session: string | undefined;
let sessions = 0;

const { waitFor, type } = terminalSession(() => session ?? "");
const env = () => ({ HOME: home, PATH: process.env["PATH"] ?? "" });

/** One conversation recorded by `xzatoma run` in `cwd`; resolves its id. */
async function recordConversation(cwd: string, prompt: string): Promise<string> {
  const outcome = await runCli(
    ["run", "--prompt", prompt, "--mode", "write", "--host", server.url],
    {
      cwd,
      env: env(),
    },
  );
  expect(outcome.code, outcome.stderr).toBe(0);
  const listed = await runCli(["history", "list", "--json", "--limit", "1"], { cwd, env: env() });
  return (JSON.parse(listed.stdout) as { items: { id: string }[] }).items[0]?.id ?? "";
}

/** Starts `xzatoma chat ARGS` in `cwd` inside a new tmux session. */
function startChat(cwd: string, ...args: string[]): void {
  sessions += 1;
  session = `xz-resume-${process.pid}-${sessions}`;
  startChatInTmux({
    session,
    home,
    cwd,
    args: ["--mode", "write", "--host", server.url, ...args],
  });
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-resume-")));
  project = path.join(base, "project");
  elsewhere = path.join(base, "elsewhere");
  home = path.join(base, "home");
  for (const directory of [project, elsewhere, home]) await mkdir(directory, { recursive: true });
  server = await startScriptedOllama({ scenario });
}, 120_000);

afterEach(() => {
  killSession(session);
  session = undefined;
});

afterAll(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
});

describe("resuming a conversation", () => {
  it("--continue opens this project's newest conversation with a recap of what was said and the files it changed", async () => {
    await recordConversation(project, "write notes.txt");
    await recordConversation(elsewhere, "the other project's topic");
    startChat(project, "--continue");
    const screen = await waitFor((text) => text.includes(">>>"), "the prompt");
    expect(screen).toContain("Recap (1 exchange):");
    expect(screen).toContain("you: write notes.txt");
    expect(screen).toContain("(tools: write_file)");
    expect(screen).toContain("xzatoma: Wrote it.");
    expect(screen).toContain("Files changed: notes.txt");
    expect(screen).not.toContain("the other project's topic");
    expect(await readFile(path.join(project, "notes.txt"), "utf8")).toBe("kept\n");
    // The model gets the earlier exchange too.
    type("and now?");
    await waitFor((text) => text.includes("Noted: and now?."), "the next answer");
    const last = server.requests.at(-1);
    expect(last?.messages.some((message) => message.content === "write notes.txt")).toBe(true);
  }, 240_000);

  it("--resume without an id offers this project's conversations, newest first, and resumes the one picked", async () => {
    const older = await recordConversation(project, "the older topic");
    await recordConversation(project, "the newer topic");
    startChat(project, "--resume");
    const picker = await waitFor(
      (text) => text.includes("Resume which conversation?") && text.includes("the older topic"),
      "the picker",
    );
    const newerAt = picker.indexOf("the newer topic");
    expect(newerAt).toBeGreaterThan(-1);
    expect(newerAt).toBeLessThan(picker.indexOf("the older topic"));
    expect(picker).not.toContain("the other project's topic");
    tmux("send-keys", "-t", session ?? "", "Down");
    tmux("send-keys", "-t", session ?? "", "Enter");
    const screen = await waitFor((text) => text.includes(">>>"), "the prompt");
    expect(screen).toContain(`Resumed conversation ${older}`);
    expect(screen).toContain("you: the older topic");
    expect(screen).toContain("xzatoma: Noted: the older topic.");
  }, 240_000);

  it("picks a conversation by its number in the picker", async () => {
    const newest = await recordConversation(project, "the numbered topic");
    startChat(project, "--resume");
    await waitFor(
      (text) => text.includes("Resume which conversation?") && text.includes("the numbered topic"),
      "the picker",
    );
    tmux("send-keys", "-t", session ?? "", "-l", "1");
    const screen = await waitFor((text) => text.includes(">>>"), "the prompt");
    expect(screen).toContain(`Resumed conversation ${newest}`);
    expect(screen).toContain("you: the numbered topic");
  }, 240_000);

  it("asks before a conversation from another directory moves its workspace here", async () => {
    const id = await recordConversation(elsewhere, "a topic from elsewhere");
    // Without a terminal nobody can be asked: it stops and says what to do.
    const piped = await runCli(["chat", "--resume", id, "--host", server.url], {
      cwd: project,
      env: env(),
      input: "hello\n",
    });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain(`worked in ${elsewhere}, not in ${project}`);
    expect(piped.stderr).toContain("--workspace");

    startChat(project, "--resume", id);
    await waitFor(
      (text) => text.includes("Continue it [h]ere") && text.includes(`worked in ${elsewhere}`),
      "the question",
    );
    type("h");
    const screen = await waitFor((text) => text.includes(">>>"), "the prompt");
    expect(screen).toContain(`XZatoma chat in ${project}`);
    expect(screen).toContain(`It worked in ${elsewhere} before`);
    expect(screen).toContain("you: a topic from elsewhere");
  }, 240_000);

  it("--resume without an id needs a terminal, and says what to give instead", async () => {
    const outcome = await runCli(["chat", "--resume", "--host", server.url], {
      cwd: project,
      env: env(),
      input: "hello\n",
    });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("needs a terminal");
    expect(outcome.stderr).toContain("--continue");
  }, 120_000);
});
