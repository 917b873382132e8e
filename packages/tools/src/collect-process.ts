import { spawn } from "node:child_process";
import type { Readable } from "node:stream";

/** Options of {@link collectProcess}. */
export interface CollectOptions {
  readonly cwd: string;
  /** The whole environment of the child (nothing is inherited). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** As `child_process.spawn` takes it; stdout and stderr must be `"pipe"` to be collected. */
  readonly stdio: readonly ("ignore" | "pipe" | number)[];
  /** Start the child in a process group of its own (its pid is the group's id). */
  readonly detached: boolean;
  /**
   * Bytes kept of each stream; past either limit the child is sent SIGTERM and both pipes
   * are closed.
   */
  readonly maxBuffer: { readonly stdout: number; readonly stderr: number };
}

/** How a collected process ended. */
export interface CollectedProcess {
  /** Undefined when it was ended by a signal or could not be started. */
  readonly exitCode: number | undefined;
  /** Its output, decoded as UTF-8, each cut at its limit. */
  readonly stdout: string;
  readonly stderr: string;
  /** Which stream went past its limit first (the child was stopped then), if one did. */
  readonly cut: "stdout" | "stderr" | undefined;
  /** The error when the process could not be started. */
  readonly spawnError: Error | undefined;
}

/** A started process: its pid at once, its outcome when it and its output streams closed. */
export interface RunningProcess {
  readonly pid: number | undefined;
  readonly result: Promise<CollectedProcess>;
}

/**
 * Starts `file` with `args` and collects its output, as the terminal tool needs it and no
 * more: Node's own `spawn`, output kept as bytes up to a limit per stream and decoded once
 * at the end. (It replaced execa, whose import alone cost ~60 ms and ~20 MiB.)
 */
export function collectProcess(
  file: string,
  args: readonly string[],
  options: CollectOptions,
): RunningProcess {
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env as NodeJS.ProcessEnv,
    stdio: [...options.stdio],
    detached: options.detached,
  });
  let cut: CollectedProcess["cut"];
  const collect = (stream: Readable | null, name: "stdout" | "stderr") => {
    const limit = options.maxBuffer[name];
    const chunks: Buffer[] = [];
    let bytes = 0;
    stream?.on("data", (chunk: Buffer) => {
      if (bytes >= limit) return;
      const room = limit - bytes;
      if (chunk.length <= room) {
        chunks.push(chunk);
        bytes += chunk.length;
        return;
      }
      chunks.push(chunk.subarray(0, room));
      bytes = limit;
      cut ??= name;
      // Output past the limit is not read: the pipes close (a writer left behind gets
      // EPIPE), so the outcome does not wait for whatever still holds them.
      child.kill("SIGTERM");
      child.stdout?.destroy();
      child.stderr?.destroy();
    });
    return () => Buffer.concat(chunks, bytes).toString("utf8");
  };
  const stdout = collect(child.stdout, "stdout");
  const stderr = collect(child.stderr, "stderr");
  const result = new Promise<CollectedProcess>((resolve) => {
    child.once("error", (error) => {
      // Not started: no close follows that could be waited for.
      if (child.pid === undefined) {
        resolve({ exitCode: undefined, stdout: "", stderr: "", cut, spawnError: error });
      }
    });
    child.once("close", (code) => {
      resolve({
        exitCode: code ?? undefined,
        stdout: stdout(),
        stderr: stderr(),
        cut,
        spawnError: undefined,
      });
    });
  });
  return { pid: child.pid, result };
}
