// /rewind and /fork in a real terminal: `xzatoma chat` runs inside tmux against the scripted
// Ollama server, whose model writes a.txt for "change a" and creates b.txt for "change b"
// (one write_file call each, then an answer: two turns per message). /rewind lists the turns
// with their files and puts back the files only, the conversation only, or both; a file the
// person changed stops it (--force keeps a copy of theirs). /fork, `chat --resume ID --fork`
// and `chat --continue --fork` continue in a new branch and leave the original as it was.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
  type ScriptedTurn,
} from "@xzatoma/scripted-servers/ollama";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.test-support.js";
import { startChatInTmux } from "./chat-terminal.test-support.js";
import { killSession, newSession, terminalSession } from "./terminal.test-support.js";
/** Each test starts a chat and waits for several answers on a machine that may be loaded. */
const TEST_TIMEOUT_MS = 360_000;

function scenario(request: OllamaChatRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  if (last?.role === "tool") return { content: "Done with the file." };
  const text = request.messages.findLast((message) => message.role === "user")?.content ?? "";
  if (text.startsWith("change a"))
    return {
      toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "alpha-2\n" } }],
    };
  if (text.startsWith("change b"))
    return {
      toolCalls: [{ name: "write_file", arguments: { path: "b.txt", content: "beta\n" } }],
    };
  return { content: `Heard: ${text}` };
}

let base: string;
let home: string;
let workspace: string;
let server: ScriptedOllama;
let session: string | undefined;
let sessions = 0;

const { screen, waitFor, type } = terminalSession(() => session ?? "");

const count = (text: string, part: string) => text.split(part).length - 1;

/** Waits until `part` shows on the screen `times` times in all. */
const waitForCount = (part: string, times: number, what: string) =>
  waitFor((text) => count(text, part) >= times, what);

/** A fresh workspace holding a.txt as the person wrote it. */
async function freshWorkspace(): Promise<void> {
  workspace = path.join(base, `project-${sessions + 1}`);
  await mkdir(workspace, { recursive: true });
  await writeFile(path.join(workspace, "a.txt"), "alpha-1\n");
}

/** The session that keeps the tmux server up between this file's chats. */
const keeper = `xz-chat-rewind-keeper-${process.pid}`;

/** Starts `xzatoma chat --mode write` in a new tmux session and waits for its prompt. */
async function startChat(...extra: string[]): Promise<void> {
  // A test that starts a second chat ends its first (left open by remain-on-exit).
  killSession(session);
  sessions += 1;
  session = `xz-chat-rewind-${process.pid}-${sessions}`;
  startChatInTmux({
    session,
    home,
    columns: 200,
    args: ["--mode", "write", "--host", server.url, "-w", workspace, ...extra],
  });
  await waitFor((text) => text.includes(">>>"), "the prompt");
}

/** Sends "change a" then "change b" and waits for both answers: turns 1-2 and 3-4. */
async function changeBoth(): Promise<void> {
  const answers = count(screen(), "Done with the file.");
  type("change a");
  await waitForCount("Done with the file.", answers + 1, "the answer to change a");
  type("change b");
  await waitForCount("Done with the file.", answers + 2, "the answer to change b");
  expect(await read("a.txt")).toBe("alpha-2\n");
  expect(await read("b.txt")).toBe("beta\n");
}

/** Leaves the chat and returns the id it saved the conversation as. */
async function leave(): Promise<string> {
  type("exit");
  const final = await waitFor((text) => text.includes("Conversation saved:"), "the goodbye");
  return /Conversation saved: ([0-9A-Z]{26})/.exec(final)?.[1] ?? "";
}

async function read(name: string): Promise<string | undefined> {
  const file = path.join(workspace, name);
  return existsSync(file) ? readFile(file, "utf8") : undefined;
}

/** The user messages of a stored conversation. */
async function userMessages(id: string): Promise<string[]> {
  const shown = await runCli(["history", "show", id, "--json"], {
    cwd: workspace,
    env: { HOME: home, PATH: process.env["PATH"] ?? "" },
  });
  expect(shown.code, shown.stderr).toBe(0);
  const conversation = JSON.parse(shown.stdout) as {
    messages: { message: { role: string; content: string } }[];
  };
  return conversation.messages
    .map((entry) => entry.message)
    .filter((message) => message.role === "user")
    .map((message) => message.content);
}

/** The user messages the model was sent in its last request. */
const lastSentUserMessages = () =>
  (server.requests.at(-1)?.messages ?? [])
    .filter((message) => message.role === "user")
    .map((message) => message.content);

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-chat-rewind-")));
  home = path.join(base, "home");
  await mkdir(home, { recursive: true });
  server = await startScriptedOllama({ scenario });
  newSession(keeper, "sleep", "3600");
});

afterEach(() => {
  killSession(session);
  session = undefined;
});

afterAll(async () => {
  killSession(keeper);
  await server?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe("/rewind in chat", () => {
  it(
    "lists the turns with their files; code only puts the files back and keeps the conversation",
    async () => {
      await freshWorkspace();
      await startChat();
      await changeBoth();
      type("/rewind");
      const listed = await waitFor(
        (text) => text.includes("/rewind N puts the files"),
        "the list of turns",
      );
      expect(listed).toMatch(/turn 1 {2}"change a" {2}a\.txt/);
      expect(listed).toMatch(/turn 2 {2}"change a" {2}no file changes/);
      expect(listed).toMatch(/turn 3 {2}"change b" {2}b\.txt/);
      type("/rewind 3 code");
      await waitFor(
        (text) => text.includes("The conversation goes on as it is."),
        "the code-only rewind",
      );
      expect(screen()).toContain("Put back 1 path");
      // b.txt did not exist before turn 3; a.txt keeps what turn 1 wrote.
      expect(await read("b.txt")).toBeUndefined();
      expect(await read("a.txt")).toBe("alpha-2\n");
      type("still there?");
      await waitFor((text) => text.includes("Heard: still there?"), "the next answer");
      expect(lastSentUserMessages()).toEqual(["change a", "change b", "still there?"]);
      const id = await leave();
      expect(await userMessages(id)).toEqual(["change a", "change b", "still there?"]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "chat only continues as a fork from before the turn, keeps the files and the original",
    async () => {
      await freshWorkspace();
      await startChat();
      await changeBoth();
      type("/rewind 3 chat");
      const rewound = await waitFor(
        (text) => text.includes("stays in history as it was"),
        "the chat-only rewind",
      );
      const [, forkId, originalId] =
        /continues as ([0-9A-Z]{26}); ([0-9A-Z]{26}) stays in history/.exec(rewound) ?? [];
      expect(forkId).toBeDefined();
      expect(rewound).toContain("back to before turn 3");
      expect(await read("a.txt")).toBe("alpha-2\n");
      expect(await read("b.txt")).toBe("beta\n");
      // The fork has the checkpoints of the turns before 3 only.
      type("/rewind");
      const screenNow = await waitForCount("/rewind N puts the files", 1, "the fork's turns");
      const listed = screenNow.slice(screenNow.lastIndexOf("Turns of this conversation"));
      expect(listed).toMatch(/turn 1 {2}"change a" {2}a\.txt/);
      expect(listed).toMatch(/turn 2 {2}"change a" {2}no file changes/);
      expect(listed).not.toMatch(/turn 3 /);
      type("what now?");
      await waitFor((text) => text.includes("Heard: what now?"), "the next answer");
      // The model no longer sees "change b".
      expect(lastSentUserMessages()).toEqual(["change a", "what now?"]);
      expect(await leave()).toBe(forkId);
      expect(await userMessages(forkId ?? "")).toEqual(["change a", "what now?"]);
      expect(await userMessages(originalId ?? "")).toEqual(["change a", "change b"]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "both: a file the person changed stops it and is named; --force keeps theirs and puts both back",
    async () => {
      await freshWorkspace();
      await startChat();
      await changeBoth();
      await writeFile(path.join(workspace, "a.txt"), "mine\n");
      type("/rewind 1");
      const stopped = await waitFor((text) => text.includes("Rewind stopped"), "the conflict");
      expect(stopped).toContain("a.txt: changed after turn 1");
      expect(stopped).toContain("type /rewind 1 both --force");
      expect(await read("a.txt")).toBe("mine\n");
      expect(await read("b.txt")).toBe("beta\n");
      // Forced: the person's a.txt is copied to the data directory, then both go back.
      type("/rewind 1 both --force");
      const forced = await waitFor(
        (text) => text.includes("back to before turn 1"),
        "the forced rewind of both",
      );
      expect(forced).toContain("Put back 2 paths");
      const kept = /your a\.txt is kept at (\S+)/.exec(forced)?.[1] ?? "";
      expect(kept.startsWith(path.join(home, ".xzatoma", "checkpoints", "kept"))).toBe(true);
      expect(await readFile(kept, "utf8")).toBe("mine\n");
      expect(await read("a.txt")).toBe("alpha-1\n");
      expect(await read("b.txt")).toBeUndefined();
      type("fresh start");
      await waitFor((text) => text.includes("Heard: fresh start"), "the next answer");
      expect(lastSentUserMessages()).toEqual(["fresh start"]);
      await leave();
    },
    TEST_TIMEOUT_MS,
  );
});

describe("forks", () => {
  let original = "";

  it(
    "/fork continues in a copy; what follows does not reach the original",
    async () => {
      await freshWorkspace();
      await startChat();
      type("remember 42");
      await waitFor((text) => text.includes("Heard: remember 42"), "the first answer");
      type("/fork");
      const forked = await waitFor((text) => text.includes("a fork of"), "the fork");
      const [, forkId, fromId] = /continues as ([0-9A-Z]{26}), a fork of ([0-9A-Z]{26})/.exec(
        forked,
      ) ?? [undefined, "", ""];
      original = fromId ?? "";
      type("and 43");
      await waitFor((text) => text.includes("Heard: and 43"), "the answer in the fork");
      expect(lastSentUserMessages()).toEqual(["remember 42", "and 43"]);
      expect(await leave()).toBe(forkId);
      expect(await userMessages(original)).toEqual(["remember 42"]);
      expect(await userMessages(forkId ?? "")).toEqual(["remember 42", "and 43"]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "chat --resume ID --fork and --continue --fork start a new branch; the resumed conversation stays as it was",
    async () => {
      expect(original).toMatch(/^[0-9A-Z]{26}$/);
      await startChat("--resume", original, "--fork");
      const banner = await waitFor((text) => text.includes("a fork of"), "the banner");
      const forkId = /continues as ([0-9A-Z]{26}), a fork of/.exec(banner)?.[1] ?? "";
      expect(forkId).not.toBe(original);
      type("and 44");
      await waitFor((text) => text.includes("Heard: and 44"), "the answer in the branch");
      expect(lastSentUserMessages()).toEqual(["remember 42", "and 44"]);
      expect(await leave()).toBe(forkId);
      expect(await userMessages(original)).toEqual(["remember 42"]);
      expect(await userMessages(forkId)).toEqual(["remember 42", "and 44"]);
      // --continue takes this project's newest conversation, the branch just made.
      await startChat("--continue", "--fork");
      const again = await waitFor((text) => text.includes("a fork of"), "the second banner");
      expect(again).toContain(`a fork of ${forkId}`);
      type("exit");
      await waitFor((text) => text.includes("Conversation saved:"), "the goodbye");
      expect(await userMessages(forkId)).toEqual(["remember 42", "and 44"]);
      const refused = await runCli(["chat", "--fork"], {
        cwd: workspace,
        env: { HOME: home, PATH: process.env["PATH"] ?? "" },
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("--fork needs --resume ID");
    },
    TEST_TIMEOUT_MS,
  );
});
