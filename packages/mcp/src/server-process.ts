import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type * as StdioCodec from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** How many lines, and characters, of a server's standard error a diagnosis quotes. */
const STDERR_LINES = 10;
const STDERR_CHARS = 1500;
/** What is kept of standard error while the server runs. */
const STDERR_KEPT = 8192;

/** A stdio server to start: the program, its arguments, its whole environment, its directory. */
export interface ServerProcessParams {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

/** How the server process ended: its exit status or the signal that ended it. */
export interface ServerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * The stdio transport of one MCP server: the program started with exactly the environment
 * given (nothing is added), newline-delimited JSON-RPC on its standard input and output, and
 * its standard error kept so that a server that cannot start can say why. Unlike the SDK's
 * transport it records how the process ended, so a diagnosis can give the exit status.
 */
export class ServerProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #params: ServerProcessParams;
  readonly #codec: typeof StdioCodec;
  readonly #buffer: StdioCodec.ReadBuffer;
  #process: ChildProcess | undefined;
  #stderr = "";
  #exit: ServerExit | undefined;

  /** `codec`: the SDK's stdio framing, loaded by the caller when a server first starts. */
  constructor(params: ServerProcessParams, codec: typeof StdioCodec) {
    this.#params = params;
    this.#codec = codec;
    this.#buffer = new codec.ReadBuffer();
  }

  /** How the process ended, once it has. */
  get exit(): ServerExit | undefined {
    return this.#exit;
  }

  /** The last lines the server wrote to its standard error (at most 10 lines, 1500 characters). */
  stderrTail(): string[] {
    const lines = this.#stderr
      .split(/\r?\n/)
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== "")
      .slice(-STDERR_LINES);
    let total = 0;
    const kept: string[] = [];
    for (const line of lines.reverse()) {
      total += line.length;
      if (total > STDERR_CHARS && kept.length > 0) break;
      kept.unshift(line.slice(-STDERR_CHARS));
    }
    return kept;
  }

  start(): Promise<void> {
    if (this.#process) return Promise.reject(new Error("The server process is already started."));
    const { command, args, env, cwd } = this.#params;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        env: { ...env },
        cwd,
        stdio: ["pipe", "pipe", "pipe"],
        shell: false,
      });
      this.#process = child;
      child.once("error", (error: NodeJS.ErrnoException) => {
        const failure = spawnFailure(error, command, cwd, env["PATH"]);
        reject(failure);
        this.onerror?.(failure);
      });
      child.once("spawn", () => resolve());
      child.once("exit", (code, signal) => (this.#exit = { code, signal }));
      child.once("close", () => {
        this.#process = undefined;
        this.onclose?.();
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => {
        this.#buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.#buffer.readMessage();
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        this.#stderr = (this.#stderr + chunk.toString("utf8")).slice(-STDERR_KEPT);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#process?.stdin;
    if (!stdin) return Promise.reject(new Error("The server process is not running."));
    return new Promise((resolve) => {
      if (stdin.write(this.#codec.serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends the server: its standard input closed, then SIGTERM, then SIGKILL, 2 s apart. */
  async close(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
      const wait = () =>
        Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      child.stdin?.end();
      await wait();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await wait();
      }
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    this.#buffer.clear();
  }
}

/** A spawn error in words: a command that is not there, or not a program. */
function spawnFailure(
  error: NodeJS.ErrnoException,
  command: string,
  cwd: string,
  searchPath?: string,
): Error {
  // Node reports a working directory that is not there as ENOENT of the command too.
  if (error.code === "ENOENT" && !existsSync(cwd)) {
    return Object.assign(
      new Error(`its working directory '${cwd}' does not exist`, { cause: error }),
      { code: error.code },
    );
  }
  const where = command.includes(path.sep)
    ? ""
    : ` on PATH (${searchPath === undefined || searchPath === "" ? "PATH is empty" : searchPath})`;
  const message =
    error.code === "ENOENT"
      ? `the command '${command}' was not found${where}`
      : error.code === "EACCES"
        ? `the command '${command}' is not an executable program (permission denied)`
        : `the command '${command}' could not be started: ${error.message}`;
  return Object.assign(new Error(message, { cause: error }), { code: error.code });
}
