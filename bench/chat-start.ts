// Time from launching `xzatoma chat` to a ready prompt, median of 10. Target: 0.3 s.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SCENARIOS, startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { CLI, format, median } from "./measure.ts";

const RUNS = 10;
const home = mkdtempSync(path.join(tmpdir(), "xz-chat-start-"));
const server = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });

function ready(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, "chat", "--host", server.url], {
      cwd: home,
      env: { PATH: process.env["PATH"] ?? "", HOME: home },
      stdio: ["pipe", "pipe", "ignore"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(">>> ")) {
        const elapsed = performance.now() - started;
        child.stdin.end("exit\n");
        child.on("close", () => resolve(elapsed));
      }
    });
    child.on("error", reject);
  });
}

try {
  await ready();
  const samples: number[] = [];
  for (let index = 0; index < RUNS; index += 1) samples.push(await ready());
  console.log(
    `xzatoma chat to a ready prompt, median of ${RUNS}: ${format(median(samples))} (target 300 ms)`,
  );
} finally {
  await server.close();
  rmSync(home, { recursive: true, force: true });
}
