// Helpers of the sandbox's tests: real temporary workspaces and real confined processes.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SandboxOutcome } from "./apply-changes.js";
import type { EgressReport } from "./egress/egress-report.js";
import type { Sandbox, SandboxRunOptions } from "./sandbox.js";

export const TEST_TIMEOUT_MS = 120_000;

/** A fresh workspace with `files` (relative path → content) in it. */
export async function makeWorkspace(files: Record<string, string> = {}): Promise<string> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "xzatoma-sandbox-test-")));
  for (const [relative, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await writeFile(path.join(root, relative), content);
  }
  return root;
}

export async function removeWorkspace(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}

export interface ConfinedResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly outcome: SandboxOutcome;
  /** The egress proxy's report, when the run had one. */
  readonly egress?: EgressReport;
}

/**
 * Runs `command` with bash in the sandbox the way the terminal tool does (own process
 * group, killed whole when `options.killAfter` resolves), then finishes the run.
 */
export async function runConfined(
  sandbox: Sandbox,
  command: string,
  run: Partial<SandboxRunOptions> & { readonly workspace: string },
  options: {
    readonly onStart?: (pid: number) => Promise<void>;
    readonly timeoutMs?: number;
    /** More of the command's environment. */
    readonly env?: Readonly<Record<string, string>>;
  } = {},
): Promise<ConfinedResult> {
  const prepared = await sandbox.prepare(["/bin/bash", "--noprofile", "--norc", "-c", command], {
    cwd: run.workspace,
    ...run,
  });
  const child = spawn(prepared.file, prepared.args, {
    cwd: run.cwd ?? run.workspace,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C", ...options.env, ...prepared.env },
    stdio: prepared.stdio,
    detached: true,
  });
  const killGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // gone already
    }
  };
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  const timer = setTimeout(killGroup, options.timeoutMs ?? 60_000);
  try {
    if (options.onStart && child.pid !== undefined) {
      await options.onStart(child.pid);
      killGroup();
    }
    const code = await closed;
    const outcome = await prepared.finish();
    return {
      code,
      stdout,
      stderr,
      outcome,
      ...(prepared.egress ? { egress: prepared.egress } : {}),
    };
  } finally {
    clearTimeout(timer);
    killGroup();
  }
}
