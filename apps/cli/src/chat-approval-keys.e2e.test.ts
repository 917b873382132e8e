// Ctrl-C and Ctrl-D at an approval question, in a real terminal: `xzatoma chat` runs inside
// tmux against the scripted Ollama server. Either key refuses the call; Ctrl-C cancels the
// turn and keeps the session, Ctrl-D ends the session cleanly; the conversation is saved.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedTurn,
} from "@xzatoma/scripted-servers/ollama";
import { describe, expect, it } from "vitest";
import { runCli } from "./cli.test-support.js";
import { chatTestBed } from "./chat-test-bed.test-support.js";
import { tmux } from "./terminal.test-support.js";

function scenario(request: OllamaChatRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  if (last?.role === "tool") return { content: `Tool said: ${last.content.split("\n")[0] ?? ""}` };
  const text = request.messages.findLast((message) => message.role === "user")?.content ?? "";
  if (text.startsWith("make a file"))
    return { toolCalls: [{ name: "terminal", arguments: { command: "echo made > out.txt" } }] };
  return { content: "Hello from the scripted model." };
}

const bed = chatTestBed("xz-approval-keys", () => startScriptedOllama({ scenario }));
const { waitFor, type } = bed.terminal;

/** Where the shell around the current session's chat writes its exit status. */
function exitFile(): string {
  return path.join(bed.base, `${bed.session ?? "none"}.exit`);
}

/** Starts `xzatoma chat --mode write --approval untrusted` in a new tmux session and waits for its prompt. */
async function startChat(): Promise<void> {
  // A function: the exit file is named after the new session.
  bed.startChat(() => ({
    // The exit status is written to a file by a shell around the chat: tmux fills in a dead
    // pane's status only when it reaps the process, which can come much later.
    launcher: ["/bin/sh", "-c", '"$@"; echo "$?" > "$0"', exitFile()],
    args: [
      "--mode",
      "write",
      // Ask before every change, so the command below waits for a person.
      "--approval",
      "untrusted",
      "--host",
      bed.server.url,
      "-w",
      bed.workspace,
    ],
  }));
  await waitFor((text) => text.includes(">>>"), "the prompt");
}

/** Asks for a command that needs a yes and waits for the question. */
async function askForApproval(): Promise<void> {
  type("make a file");
  await waitFor(
    (text) => text.includes("terminal wants to: echo made > out.txt") && text.includes("[r]eject?"),
    "the approval question",
  );
}

async function savedConversations(): Promise<string[]> {
  const listed = await runCli(["history", "list", "--json"], {
    cwd: bed.workspace,
    env: { HOME: bed.home, PATH: process.env["PATH"] ?? "" },
  });
  expect(listed.code).toBe(0);
  return (JSON.parse(listed.stdout) as { items: { id: string }[] }).items.map((entry) => entry.id);
}

describe("keys at an approval question", () => {
  it("Ctrl-C refuses the call, cancels the turn and keeps the session", async () => {
    await startChat();
    await askForApproval();
    tmux("send-keys", "-t", bed.session ?? "", "C-c");
    await waitFor((text) => text.includes("(cancelled)"), "the cancelled turn");
    expect(existsSync(path.join(bed.workspace, "out.txt"))).toBe(false);
    type("hello there");
    await waitFor((text) => text.includes("Hello from the scripted model."), "the next answer");
    type("exit");
    const final = await waitFor((text) => text.includes("Conversation saved:"), "the goodbye");
    const id = /Conversation saved: ([0-9A-Z]{26})/.exec(final)?.[1] ?? "";
    expect(await savedConversations()).toContain(id);
  });

  it("Ctrl-D refuses the call and ends the session cleanly, the conversation saved", async () => {
    await startChat();
    await askForApproval();
    tmux("send-keys", "-t", bed.session ?? "", "C-d");
    const final = await waitFor(
      (text) => text.includes("Conversation saved:"),
      "the session's end",
    );
    await waitFor(() => existsSync(exitFile()), "the process to exit");
    expect((await readFile(exitFile(), "utf8")).trim()).toBe("0");
    expect(final).not.toContain("ERR_");
    expect(final).not.toMatch(/error/i);
    expect(existsSync(path.join(bed.workspace, "out.txt"))).toBe(false);
    const id = /Conversation saved: ([0-9A-Z]{26})/.exec(final)?.[1] ?? "";
    expect(await savedConversations()).toContain(id);
    const shown = await runCli(["history", "show", id], {
      cwd: bed.workspace,
      env: { HOME: bed.home, PATH: process.env["PATH"] ?? "" },
    });
    expect(shown.stdout).toContain("make a file");
  }, 120_000);
});
