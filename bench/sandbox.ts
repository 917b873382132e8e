// The sandbox's cost per command: `ls` run directly and through the sandbox (prepare,
// spawn, finish), median and p90 of RUNS (default 50, `node bench/sandbox.ts 200`) after a
// warm-up, plus a command that writes 100 files (their changes judged and applied). Run as
// root it includes the pids and memory cgroups; run it as an ordinary user
// (setpriv --reuid=...) for the figure most users see.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createSandbox } from "../packages/safety/dist/index.js";
import { format, median } from "./measure.ts";

const RUNS = Number.parseInt(process.argv[2] ?? "50", 10);
const workspace = mkdtempSync(path.join(tmpdir(), "xz-bench-sandbox-"));
writeFileSync(path.join(workspace, "README.md"), "bench\n");
const sandbox = createSandbox({ env: process.env });
await sandbox.probe();
if (sandbox.kind !== "bubblewrap") {
  console.error(`no sandbox here: ${sandbox.warning ?? "unknown reason"}`);
  process.exit(2);
}

async function once(script: string, confined: boolean): Promise<number> {
  const argv = ["/bin/bash", "--noprofile", "--norc", "-c", script];
  const started = performance.now();
  const run = confined
    ? await sandbox.prepare(argv, { workspace, cwd: workspace })
    : {
        file: argv[0]!,
        args: argv.slice(1),
        env: {},
        stdio: ["ignore", "pipe", "pipe"],
        finish: () => Promise.resolve(),
      };
  await new Promise((resolve, reject) => {
    const child = spawn(run.file, run.args, {
      stdio: run.stdio as ["ignore", "pipe", "pipe"],
      env: { PATH: "/usr/bin:/bin", ...run.env },
      detached: true,
    });
    child.on("error", reject);
    child.on("close", resolve);
  });
  await run.finish();
  return performance.now() - started;
}

function p90(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)]!;
}

interface Figures {
  readonly median: number;
  readonly p90: number;
}

// An agent's commands come seconds apart, not back to back; some kernel costs (an RCU
// grace period) show only then, so the spaced rows leave `pauseMs` between commands.
async function measure(script: string, confined: boolean, pauseMs = 0): Promise<Figures> {
  await once(script, confined);
  const times: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    times.push(await once(script, confined));
  }
  return { median: median(times), p90: p90(times) };
}

const show = (figures: Figures, base?: Figures) =>
  `${format(figures.median)} (p90 ${format(figures.p90)})` +
  (base
    ? `  added: +${format(figures.median - base.median)} (p90 +${format(figures.p90 - base.p90)})`
    : "");

try {
  const direct = await measure("ls", false);
  const confined = await measure("ls", true);
  const directSpaced = await measure("ls", false, 100);
  const confinedSpaced = await measure("ls", true, 100);
  const write = "for i in $(seq 100); do echo $i > f$i.txt; done; rm -f f*.txt";
  const directWrite = await measure(write, false);
  const confinedWrite = await measure(write, true);
  console.log(
    `sandbox per command (${process.getuid?.() === 0 ? "root" : "ordinary user"}), median and p90 of ${RUNS}, target < 15 ms added`,
  );
  console.log(`  ls directly              ${show(direct)}`);
  console.log(`  ls in the sandbox        ${show(confined, direct)}`);
  console.log(`  ls directly, 100 ms apart ${show(directSpaced)}`);
  console.log(`  ls sandboxed, 100 ms apart ${show(confinedSpaced, directSpaced)}`);
  console.log(`  100 files directly       ${show(directWrite)}`);
  console.log(`  100 files in the sandbox ${show(confinedWrite, directWrite)}`);
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
