// What the end-to-end tests share: the built `xzatoma` started as a child process, and a
// port where nothing listens. Run `nx build cli` first (the test targets depend on it).
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** The command's entry point, as `npx @xzatoma/cli` runs it. */
export const BIN = fileURLToPath(new URL("../bin/xzatoma.js", import.meta.url));

/** How a run of the command ended. */
export interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  readonly cwd: string;
  /** The whole environment of the child (nothing is inherited). */
  readonly env: Record<string, string>;
  /** Written to standard input, which then ends; without it standard input is /dev/null. */
  readonly input?: string;
}

/**
 * Runs the built command with this Node and collects its output. Asynchronous, so a
 * scripted server in the test's own process keeps answering meanwhile.
 */
export function runCli(args: readonly string[], options: RunCliOptions): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** A port on 127.0.0.1 where nothing listens (it was free a moment ago). */
export async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
