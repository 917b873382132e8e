// The chat's input and rendering in a real terminal: `xzatoma chat` runs inside tmux against
// the scripted Ollama server. A paste of many lines is one message, Ctrl-J adds a line, the
// slash menu narrows as a command is typed, history comes back in the next session, answers
// wrap on words at 40 columns, and the status line names the model.
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedTurn,
} from "@xzatoma/scripted-servers/ollama";
import { describe, expect, it } from "vitest";
import { chatTestBed } from "./chat-test-bed.test-support.js";
import { tmux } from "./terminal.test-support.js";
/** Each test starts a chat and waits on the screen up to 60 s at a time, on a loaded machine. */
const TEST_TIMEOUT_MS = 240_000;

const PARAGRAPH =
  "Wrapping matters: a **narrow terminal** must break this answer between words, never inside one, so that `every-word` stays whole and readable for the person reading it.";
const TABLE = "| tool | calls |\n|---|---|\n| terminal | 3 |\n| read_file | 12 |";

function lastUserText(request: OllamaChatRequest): string {
  return request.messages.findLast((message) => message.role === "user")?.content ?? "";
}

function scenario(request: OllamaChatRequest): ScriptedTurn {
  const text = lastUserText(request);
  if (text.startsWith("wrap please"))
    return { content: `${PARAGRAPH}\n\n${TABLE}\n\nEnd of answer.` };
  return { content: `Received ${text.split("\n").length} lines.` };
}

/** A stack trace of 30 lines, as a person would paste it. */
const STACK_TRACE = [
  "TypeError: Cannot read properties of undefined (reading 'id')",
  ...Array.from(
    { length: 29 },
    (_, index) =>
      `    at handler${index} (/srv/app/src/module-${index}.ts:${10 + index}:${5 + index})`,
  ),
].join("\n");

const bed = chatTestBed("xz-chat-ui", () => startScriptedOllama({ scenario }));
const { screen, waitFor, type } = bed.terminal;
const keys = (...names: string[]) => tmux("send-keys", "-t", bed.session ?? "", ...names);
const text = (value: string) => tmux("send-keys", "-t", bed.session ?? "", "-l", value);

/** Starts `xzatoma chat` in a new tmux session `columns` wide and waits for its prompt. */
async function startChat(columns: number, environment: string[] = ["NO_COLOR=1"]): Promise<void> {
  bed.startChat({
    columns,
    environment,
    args: ["--host", bed.server.url, "-w", bed.workspace, "--approval", "untrusted"],
  });
  await waitFor((shown) => shown.includes(">>>"), "the prompt");
}

/** Waits until the server has received `count` chat requests. */
async function requestsReceived(count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (bed.server.requests.length < count) {
    if (Date.now() > deadline)
      throw new Error(`the server received ${bed.server.requests.length} requests, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the chat's input and rendering in a terminal", () => {
  it(
    "shows a status line with the model, mode and approval policy under the prompt",
    async () => {
      await startChat(160);
      await waitFor(
        (shown) => shown.includes("ollama: llama3.2:latest · planning · approvals untrusted"),
        "the status line",
      );
      // After a turn it counts the context and the tokens.
      type("hello");
      await waitFor(
        (shown) =>
          shown.includes("Received 1 lines.") &&
          /approvals untrusted · context \d+% of \d+k · \d+ tokens/.test(shown),
        "the status line after a turn",
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "sends a pasted 30-line stack trace as one message, nothing lost",
    async () => {
      await startChat(160);
      const before = bed.server.requests.length;
      await writeFile(path.join(bed.base, "trace.txt"), STACK_TRACE);
      tmux("load-buffer", "-b", "xz-trace", path.join(bed.base, "trace.txt"));
      // -p: as a terminal pastes, inside bracketed-paste marks when the program asks for them.
      tmux("paste-buffer", "-p", "-d", "-b", "xz-trace", "-t", bed.session ?? "");
      await waitFor(
        (shown) => shown.includes("module-28.ts:38:33)"),
        "the pasted text in the prompt",
      );
      // Nothing is sent until Enter.
      expect(bed.server.requests.length).toBe(before);
      keys("Enter");
      await waitFor((shown) => shown.includes("Received 30 lines."), "the answer");
      expect(bed.server.requests.length).toBe(before + 1);
      const request = bed.server.requests.at(-1);
      expect(request && lastUserText(request)).toBe(STACK_TRACE);
      const users = request?.messages.filter((message) => message.role === "user") ?? [];
      expect(users).toHaveLength(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "adds a line with Ctrl-J, and sends both lines with Enter",
    async () => {
      await startChat(160);
      const before = bed.server.requests.length;
      text("first line");
      keys("C-j");
      text("second line");
      await waitFor((shown) => /\.\.\. second line/.test(shown), "the second line in the prompt");
      keys("Enter");
      await requestsReceived(before + 1);
      await waitFor((shown) => shown.includes("Received 2 lines."), "the answer");
      const request = bed.server.requests.at(-1);
      expect(request && lastUserText(request)).toBe("first line\nsecond line");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "shows the slash menu, narrows it as the command is typed, and completes with Tab",
    async () => {
      await startChat(160);
      text("/");
      const all = await waitFor(
        (shown) => shown.includes("/approvals") && shown.includes("/models"),
        "the menu of commands",
      );
      expect(all).toMatch(/\/status\s+mode, approval policy, model, workspace and usage/);
      text("mod");
      const narrowed = await waitFor(
        (shown) => !shown.includes("/approvals") && shown.includes("/model"),
        "the narrowed menu",
      );
      expect(narrowed).toMatch(/\/mode\s+switch mode/);
      expect(narrowed).not.toContain("/status");
      // Backspace widens it again; Tab completes the chosen command.
      keys("C-u");
      text("/stat");
      await waitFor((shown) => !shown.includes("/models"), "the menu with /status only");
      keys("Tab");
      await waitFor(
        (shown) => /\/status $/m.test(shown) || shown.includes(">>> /status"),
        "the completed command",
      );
      keys("Enter");
      await waitFor(
        (shown) => (shown.split(">>> /status")[1] ?? "").includes(`workspace: ${bed.workspace}`),
        "the status",
      );
      // The slash command was not sent to the model.
      expect(bed.server.requests.every((request) => !lastUserText(request).startsWith("/"))).toBe(
        true,
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "recalls a message of an earlier session with Up, from a private history file",
    async () => {
      await startChat(160);
      type("remember this message");
      await waitFor((shown) => shown.includes("Received 1 lines."), "the first session's answer");
      type("exit");
      await waitFor(
        (shown) => shown.includes("Conversation saved:"),
        "the end of the first session",
      );
      tmux("kill-session", "-t", bed.session ?? "");
      const file = path.join(bed.home, ".xzatoma", "prompt-history.jsonl");
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await readFile(file, "utf8")).toContain('"remember this message"');

      await startChat(160);
      const before = bed.server.requests.length;
      keys("Up");
      await waitFor(
        (shown) => /\] >>> remember this message\s*$/m.test(shown),
        "the recalled message",
      );
      keys("Enter");
      await requestsReceived(before + 1);
      const request = bed.server.requests.at(-1);
      expect(request && lastUserText(request)).toBe("remember this message");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "wraps an answer on words in a 40-column terminal and draws its table",
    async () => {
      // With colours, as a person's terminal has them: the Markdown's marks are gone.
      await startChat(40, []);
      type("wrap please");
      const shown = await waitFor((text) => text.includes("End of answer."), "the answer");
      const answer = shown.slice(
        shown.indexOf("Wrapping matters:"),
        shown.indexOf("End of answer."),
      );
      const lines = answer.split("\n").filter((line) => line.trim() !== "");
      // The screen is read with wrapped lines joined: a line the terminal had to wrap is longer.
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
      const paragraph = lines.filter((line) => !/[┌│├└]/.test(line));
      expect(paragraph.length).toBeGreaterThan(3);
      expect(paragraph.join(" ")).toBe(PARAGRAPH.replaceAll("**", "").replaceAll("`", ""));
      expect(answer).toContain("│ terminal  │ 3     │");
      expect(answer).toContain("│ read_file │ 12    │");
      expect(screen()).not.toContain("**");
    },
    TEST_TIMEOUT_MS,
  );
});
