// The setup shared by the end-to-end test files that start a new `xzatoma chat` in tmux for
// each test: test directories and a scripted model server for the whole file, and each
// test's tmux session ended after it.
import { rm } from "node:fs/promises";
import { afterAll, afterEach, beforeAll } from "vitest";
import { startChatInTmux, type ChatInTmux } from "./chat-terminal.test-support.js";
import { killSession, terminalSession, type TerminalSession } from "./terminal.test-support.js";
import { makeTestDirectories, type TestDirectories } from "./workspace.test-support.js";

/** How {@link ChatTestBed.startChat} starts the chat. */
export type ChatOptions = Omit<ChatInTmux, "session" | "home">;

/** What {@link chatTestBed} gives a test file; read it inside tests and hooks only. */
export interface ChatTestBed<Server> extends TestDirectories {
  /** The scripted model server, started once for the file. */
  readonly server: Server;
  /** The tmux session of the running test, once it started one. */
  readonly session: string | undefined;
  /** The screen of the running test's session, and keys typed into it. */
  readonly terminal: TerminalSession;
  /**
   * Starts `xzatoma chat` in a new tmux session (named after the bed, this process and a
   * count), with the bed's home; it does not wait for the prompt. Options given as a function
   * are read once {@link session} names the new session.
   */
  startChat(options: ChatOptions | (() => ChatOptions)): void;
}

/**
 * Registers the file's hooks: before all tests, directories named after `name` and the server
 * `startServer` starts (test files pass it in: only they may import the scripted servers);
 * after each test, its tmux session ends; after all, the server closes and the directories
 * are removed.
 */
export function chatTestBed<Server extends { close(): Promise<void> }>(
  name: string,
  startServer: () => Promise<Server>,
): ChatTestBed<Server> {
  let directories: TestDirectories | undefined;
  let server: Server | undefined;
  let session: string | undefined;
  let sessions = 0;

  function ready(): { readonly directories: TestDirectories; readonly server: Server } {
    if (directories === undefined || server === undefined)
      throw new Error(`the test bed ${name} is made in beforeAll; read it inside tests`);
    return { directories, server };
  }

  beforeAll(async () => {
    directories = await makeTestDirectories(`${name}-`);
    server = await startServer();
  });

  afterEach(() => {
    killSession(session);
    session = undefined;
  });

  afterAll(async () => {
    await server?.close();
    if (directories) await rm(directories.base, { recursive: true, force: true });
  });

  return {
    get base() {
      return ready().directories.base;
    },
    get workspace() {
      return ready().directories.workspace;
    },
    get home() {
      return ready().directories.home;
    },
    get server() {
      return ready().server;
    },
    get session() {
      return session;
    },
    terminal: terminalSession(() => session ?? ""),
    startChat(options) {
      sessions += 1;
      session = `${name}-${process.pid}-${sessions}`;
      const chosen = typeof options === "function" ? options() : options;
      startChatInTmux({ ...chosen, session, home: ready().directories.home });
    },
  };
}
