// `run` stopped by a signal (`kill`, `timeout`, a closed terminal) while a slow model answers:
// the conversation is recorded as interrupted, never left `running`, and the exit code is
// 128 + the signal's number, as a shell reports it.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedOllama, type ScriptedOllama } from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runCli } from "./cli.test-support.js";

let base: string;
let workspace: string;
let home: string;
let server: ScriptedOllama;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-run-signals-")));
  workspace = path.join(base, "project");
  home = path.join(base, "home");
  await mkdir(workspace, { recursive: true });
  await mkdir(home, { recursive: true });
  // A model that takes minutes to say its answer, one word at a time.
  server = await startScriptedOllama({
    scenario: () => ({ content: "slowly ".repeat(2_000), chunkDelayMs: 100 }),
  });
});

afterAll(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
});

const env = () => ({ HOME: home, PATH: process.env["PATH"] ?? "", OLLAMA_HOST: server.url });

/** Starts `run`, sends `signal` once the answer has begun, and resolves with the exit code. */
function runAndSignal(signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "run", "--provider", "ollama", "Tell me slowly."], {
      cwd: workspace,
      env: env(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let sent = false;
    child.stdout.on("data", (chunk: Buffer) => {
      if (!sent && chunk.toString().includes("slowly")) {
        sent = true;
        child.kill(signal);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe.each([
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const)("run stopped by %s", (signal, exitCode) => {
  it(`records the conversation as interrupted and exits with ${exitCode}`, async () => {
    const before = server.requests.length;
    const outcome = await runAndSignal(signal);
    expect(outcome.stderr).toContain("interrupted");
    expect(outcome.code).toBe(exitCode);
    expect(server.requests.length).toBe(before + 1);
    const listed = await runCli(["history", "list", "--json"], { cwd: workspace, env: env() });
    const items = (JSON.parse(listed.stdout) as { items: { status: string }[] }).items;
    expect(items[0]?.status).toBe("interrupted");
    expect(items.map((item) => item.status)).not.toContain("running");
  });
});
