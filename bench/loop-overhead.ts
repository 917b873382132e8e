// Agent overhead per turn: tool-call turns against the scripted server answering at
// once. ms per turn = (wall at 100 turns - wall at 20 turns) / 80, and the same for the
// CLI's CPU time; peak RSS of the CLI at 100 turns (GNU time). Targets: <= 5 ms per turn,
// < 120 MiB.
//
//   node bench/loop-overhead.ts [BIN]
//
// BIN defaults to apps/cli/bin/xzatoma.js; another build's bin measures that build.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SCENARIOS, startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { CLI, format, median, run } from "./measure.ts";

const RUNS = 5;
const bin = process.argv[2] ? path.resolve(process.argv[2]) : CLI;
const GNU_TIME = "/usr/bin/time";
if (!existsSync(GNU_TIME)) {
  console.error("GNU time is needed for peak RSS: apt-get install time");
  process.exit(2);
}
const workspace = mkdtempSync(path.join(tmpdir(), "xz-bench-"));
writeFileSync(path.join(workspace, "README.md"), "bench\n");
const server = await startScriptedOllama({ scenario: SCENARIOS["tool-loop"]! });

async function turns(count: number): Promise<{ wallMs: number; cpuMs: number; peakKiB: number }> {
  const args = [
    "-f",
    "%U %S %M",
    process.execPath,
    bin,
    "run",
    "--prompt",
    `turns:${count}`,
    "--host",
    server.url,
  ];
  const result = await run(GNU_TIME, [
    ...args,
    "-w",
    workspace,
    "--max-turns",
    "1000",
    "--max-tool-calls",
    "1000",
  ]);
  if (result.code !== 0) throw new Error(`run failed: ${result.stderr}`);
  const [user = "", system = "", peak = ""] = (result.stderr.trim().split("\n").at(-1) ?? "").split(
    " ",
  );
  return {
    wallMs: result.wallMs,
    cpuMs: (Number(user) + Number(system)) * 1000,
    peakKiB: Number(peak),
  };
}

try {
  await turns(20); // warm up
  const at20: number[] = [];
  const at100: number[] = [];
  const cpu20: number[] = [];
  const cpu100: number[] = [];
  const peaks: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const twenty = await turns(20);
    at20.push(twenty.wallMs);
    cpu20.push(twenty.cpuMs);
    const hundred = await turns(100);
    at100.push(hundred.wallMs);
    cpu100.push(hundred.cpuMs);
    peaks.push(hundred.peakKiB);
  }
  const wall20 = median(at20);
  const wall100 = median(at100);
  console.log(`agent loop, median of ${RUNS}`);
  console.log(`  wall at 20 turns   ${format(wall20)}`);
  console.log(`  wall at 100 turns  ${format(wall100)}`);
  console.log(`  per turn           ${format((wall100 - wall20) / 80)} (target <= 5 ms)`);
  // CPU (user + system, all threads, 10 ms resolution per run) is far less moved by a busy
  // machine than wall time; the wall figure also holds the history's fsync per turn.
  console.log(
    `  CPU per turn       ${format((median(cpu100) - median(cpu20)) / 80)} (CPU at 100 turns ${format(median(cpu100))}, at 20 ${format(median(cpu20))})`,
  );
  console.log(`  peak RSS at 100    ${(median(peaks) / 1024).toFixed(1)} MiB (target < 120 MiB)`);
} finally {
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
}
