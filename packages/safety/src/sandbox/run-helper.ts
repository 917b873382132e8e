import { spawn, type StdioOptions } from "node:child_process";

/** How a helper process ended. */
export interface HelperResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

const OUTPUT_LIMIT = 1024 * 1024;

/**
 * Runs one of the sandbox's own helper processes (the start-up check, the overlay probe)
 * in its own process group, killed whole after `timeoutMs`.
 */
export function runHelper(
  file: string,
  args: readonly string[],
  options: {
    readonly env: Record<string, string>;
    readonly timeoutMs: number;
    readonly stdio?: StdioOptions;
    readonly cwd?: string;
  },
): Promise<HelperResult> {
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      env: options.env,
      cwd: options.cwd,
      stdio: options.stdio ?? ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout?.on("data", (chunk: Buffer) => {
      if (stdout.length < OUTPUT_LIMIT) stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < OUTPUT_LIMIT) stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ status: null, signal: null, stdout, stderr: error.message, timedOut });
    });
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, timedOut });
    });
  });
}
