// `xzatoma agent` as an editor starts it: time from writing `initialize` (at spawn, so the
// agent's start-up counts) to the first `session/update` of a prompt, with the scripted
// Ollama server answering at once. Median of 10 (one warm-up run first), with the steps:
// initialize answered, session/new answered, prompt sent to first update.
// Plain newline-delimited JSON-RPC, as any editor writes it.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SCENARIOS, startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { CLI, format, median } from "./measure.ts";

const RUNS = 10;

interface Sample {
  readonly total: number;
  readonly initialize: number;
  readonly sessionNew: number;
  readonly promptToUpdate: number;
}

async function once(url: string, home: string, workspace: string): Promise<Sample> {
  const child = spawn(process.execPath, [CLI, "agent"], {
    cwd: workspace,
    env: { PATH: process.env["PATH"] ?? "", HOME: home, OLLAMA_HOST: url },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  let firstUpdate: ((at: number) => void) | undefined;
  let pending = "";
  child.stdout.on("data", (chunk: Buffer) => {
    const at = performance.now();
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      const message = JSON.parse(line) as Record<string, unknown>;
      if (message["method"] === "session/update") firstUpdate?.(at);
      else if (typeof message["id"] === "number") waiting.get(message["id"])?.(message);
    }
  });
  let exited: ((code: number | null) => void) | undefined;
  child.on("close", (code) => exited?.(code));
  let nextId = 0;
  const request = (method: string, params: unknown) =>
    new Promise<{ result: Record<string, unknown>; at: number }>((resolve, reject) => {
      exited = (code) => reject(new Error(`xzatoma agent exited with ${code} during ${method}`));
      const id = (nextId += 1);
      waiting.set(id, (message) => {
        if (message["error"]) reject(new Error(`${method}: ${JSON.stringify(message["error"])}`));
        else
          resolve({ result: message["result"] as Record<string, unknown>, at: performance.now() });
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  try {
    const start = performance.now();
    const initialized = await request("initialize", {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } },
    });
    const created = await request("session/new", { cwd: workspace, mcpServers: [] });
    const updated = new Promise<number>((resolve) => (firstUpdate = resolve));
    const prompted = performance.now();
    const answered = request("session/prompt", {
      sessionId: created.result["sessionId"],
      prompt: [{ type: "text", text: "hello" }],
    });
    const first = await updated;
    await answered;
    return {
      total: first - start,
      initialize: initialized.at - start,
      sessionNew: created.at - initialized.at,
      promptToUpdate: first - prompted,
    };
  } finally {
    if (child.exitCode === null) {
      const closed = new Promise((resolve) => child.on("close", resolve));
      child.stdin.end();
      await closed;
    }
  }
}

const server = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
const base = await mkdtemp(path.join(os.tmpdir(), "xz-bench-acp-"));
const home = path.join(base, "home");
const workspace = path.join(base, "project");
await mkdir(home, { recursive: true });
await mkdir(workspace, { recursive: true });
try {
  await once(server.url, home, workspace); // warms the file cache
  const samples: Sample[] = [];
  for (let index = 0; index < RUNS; index += 1)
    samples.push(await once(server.url, home, workspace));
  const of = (key: keyof Sample) => format(median(samples.map((sample) => sample[key])));
  console.log(`acp: initialize (written at spawn) to the first session/update, median of ${RUNS}`);
  console.log(`  total                     ${of("total")}`);
  console.log(`  initialize answered       ${of("initialize")}`);
  console.log(`  session/new answered      ${of("sessionNew")} after that`);
  console.log(`  prompt to first update    ${of("promptToUpdate")}`);
} finally {
  await server.close();
  await rm(base, { recursive: true, force: true });
}
