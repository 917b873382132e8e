// Runs `xzatoma chat` in a pseudo-terminal for the chat benchmarks, so the chat's terminal
// input (the line editor, raw mode, the status line) is what is measured. The terminal is
// util-linux `script`, which gives the chat a pty and copies what the chat draws to us.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { CLI } from "./measure.ts";

/** A chat in a pty: what it has drawn, and keys typed into it. */
export interface PtyChat {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything drawn since the start (or since `clear`). */
  output(): string;
  clear(): void;
  /** Types text; `\r` is Enter. */
  type(text: string): void;
  /** Resolves once `predicate` holds for the output, polling every `pollMs`. */
  waitFor(predicate: (text: string) => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** The pid of the chat's own node process (below `script` and its shell). */
  chatPid(): number | undefined;
  /** Types `exit` and waits for the end. */
  close(): Promise<void>;
}

const quote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/** Starts `xzatoma chat ARGS` in a pty of `columns` x `rows`. */
export function startPtyChat(
  args: readonly string[],
  options: { home: string; cwd: string; columns?: number; rows?: number; color?: boolean },
): PtyChat {
  const command = [
    `stty cols ${options.columns ?? 100} rows ${options.rows ?? 40};`,
    "exec",
    quote(process.execPath),
    quote(CLI),
    "chat",
    ...args.map(quote),
  ].join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: options.cwd,
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: options.home,
      TERM: "xterm-256color",
      SHELL: "/bin/sh",
      ...(options.color === false ? { NO_COLOR: "1" } : {}),
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let text = "";
  const waiters = new Set<() => void>();
  child.stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    for (const waiter of waiters) waiter();
  });
  const descendants = (pid: number): number[] => {
    const found: number[] = [];
    try {
      for (const task of readdirSync(`/proc/${pid}/task`)) {
        const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
        for (const child of children.split(/\s+/).filter(Boolean).map(Number)) {
          found.push(child, ...descendants(child));
        }
      }
    } catch {
      // Gone.
    }
    return found;
  };
  return {
    child,
    output: () => text,
    clear() {
      text = "";
    },
    type(value) {
      child.stdin.write(value);
    },
    waitFor(predicate, what, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(text)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${what}; the chat drew:\n${text.slice(-2000)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    chatPid() {
      const pids = child.pid === undefined ? [] : descendants(child.pid);
      return pids.find((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(CLI);
        } catch {
          return false;
        }
      });
    },
    close() {
      return new Promise((resolve) => {
        child.once("close", () => resolve());
        child.stdin.write("exit\r");
      });
    },
  };
}

/** Peak resident memory of a process so far (VmHWM), in MiB. */
export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

/** Percentile `p` (0-100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}
