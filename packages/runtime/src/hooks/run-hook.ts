import { spawn } from "node:child_process";
import type { HookCommand } from "./hooks-config.js";

/** How one hook ended. */
export type HookOutcome =
  | { readonly kind: "ok"; readonly stdout: string }
  /** Exit code 2: the hook refuses; `reason` is its standard error. */
  | { readonly kind: "block"; readonly reason: string }
  /** It could not start, exited otherwise than 0 or 2, or timed out. */
  | { readonly kind: "failed"; readonly reason: string };

const MAX_CAPTURE = 64 * 1024;

/**
 * Runs one hook: `sh -c COMMAND` in `cwd` (XZatoma's data directory, never the workspace),
 * the event as JSON on standard input, stopped with what it started after its timeout.
 */
export function runHook(
  hook: HookCommand,
  event: Record<string, unknown>,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<HookOutcome> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let settled = false;
    const child = spawn("sh", ["-c", hook.command], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so a timeout stops what it started too.
      detached: true,
    });
    const settle = (outcome: HookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      settle({ kind: "failed", reason: `timed out after ${hook.timeout} s` });
    }, hook.timeout * 1000);
    child.stdout.on("data", (chunk: Buffer) => {
      if (stdout.length < MAX_CAPTURE) stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < MAX_CAPTURE) stderr += chunk.toString("utf8");
    });
    child.stdin.on("error", () => undefined);
    child.on("error", (error) => {
      settle({ kind: "failed", reason: `could not start: ${error.message}` });
    });
    child.on("close", (code) => {
      if (code === 0) settle({ kind: "ok", stdout });
      else if (code === 2) settle({ kind: "block", reason: stderr.trim() || "refused by a hook" });
      else
        settle({ kind: "failed", reason: `exited with ${code ?? "a signal"}: ${stderr.trim()}` });
    });
    child.stdin.end(`${JSON.stringify(event)}\n`);
  });
}
