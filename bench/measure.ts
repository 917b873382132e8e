// Helpers shared by the benchmarks: repeated runs, medians, child processes.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const CLI = path.join(ROOT, "apps", "cli", "bin", "xzatoma.js");

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Wall time of a command that runs to completion, in milliseconds. */
export function timeSync(command: string, args: readonly string[]): number {
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: "ignore", env: process.env });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} exited ${String(result.status)}`);
  return performance.now() - started;
}

/** Runs a command asynchronously (so an in-process server can answer it), collecting its output. */
export function run(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = ROOT,
): Promise<{
  code: number | null;
  stdout: string;
  stderr: string;
  startedAt: number;
  wallMs: number;
}> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.timeOrigin + performance.now();
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env, cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({
        code,
        stdout,
        stderr,
        startedAt,
        wallMs: performance.timeOrigin + performance.now() - startedAt,
      }),
    );
  });
}

export function format(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}
