// A run that executes terminal commands: `xzatoma run` where the scripted model asks for
// `ls` N times (allowlisted, so no approval), inside the sandbox and without it. Reports
// wall time and peak RSS (GNU time), median of 5, and the sandbox's cost per command.
//
//   node bench/command-run.ts [--commands N] [--sandbox-only]
//
// `--commands 100 --sandbox-only` is the shell variant of the 100-turn memory figure
// (bench/issue-12.ts): only the run with the sandbox, as a user's run has it.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { SCENARIOS, startScriptedOllama } from "../tools/scripted-servers/ollama-server.ts";
import { CLI, format, median, run } from "./measure.ts";

const RUNS = 5;
const { values: options } = parseArgs({
  options: { commands: { type: "string", default: "5" }, "sandbox-only": { type: "boolean" } },
});
const COMMANDS = Number(options.commands);
if (!Number.isInteger(COMMANDS) || COMMANDS < 1) {
  console.error(`--commands must be a positive whole number, not '${options.commands}'`);
  process.exit(2);
}
const SANDBOX_ONLY = options["sandbox-only"] === true;
const GNU_TIME = "/usr/bin/time";
if (!existsSync(GNU_TIME)) {
  console.error("GNU time is needed for peak RSS: apt-get install time");
  process.exit(2);
}
const workspace = mkdtempSync(path.join(tmpdir(), "xz-bench-commands-"));
writeFileSync(path.join(workspace, "README.md"), "bench\n");
const server = await startScriptedOllama({ scenario: SCENARIOS["shell-loop"]! });

async function once(
  commands: number,
  sandbox: boolean,
): Promise<{ wallMs: number; peakKiB: number }> {
  const args = ["-f", "%M", process.execPath, CLI, "run", "--prompt", `commands:${commands}`];
  args.push("--host", server.url, "-w", workspace, "--mode", "write");
  args.push("--max-turns", String(commands + 10), "--max-tool-calls", String(commands + 10));
  if (!sandbox) args.push("--no-sandbox");
  const result = await run(GNU_TIME, args);
  if (result.code !== 0) throw new Error(`run failed: ${result.stderr}`);
  return { wallMs: result.wallMs, peakKiB: Number(result.stderr.trim().split("\n").at(-1)) };
}

try {
  await once(Math.min(COMMANDS, 5), true); // warm up
  const rows: Record<string, { wall: number[]; peak: number[] }> = {};
  const variants: (readonly [string, boolean, number])[] = SANDBOX_ONLY
    ? [[`sandbox, ${COMMANDS} commands`, true, COMMANDS]]
    : [
        ["sandbox, 0 commands", true, 0],
        [`sandbox, ${COMMANDS} commands`, true, COMMANDS],
        [`no sandbox, ${COMMANDS} commands`, false, COMMANDS],
      ];
  for (const [label, sandbox, commands] of variants) {
    const wall: number[] = [];
    const peak: number[] = [];
    for (let index = 0; index < RUNS; index += 1) {
      const result = await once(commands, sandbox);
      wall.push(result.wallMs);
      peak.push(result.peakKiB);
    }
    rows[label] = { wall, peak };
  }
  console.log(`run that executes commands (ls), median of ${RUNS}`);
  for (const [label, row] of Object.entries(rows)) {
    console.log(
      `  ${label.padEnd(26)} wall ${format(median(row.wall))}   peak RSS ${(median(row.peak) / 1024).toFixed(1)} MiB`,
    );
  }
  if (!SANDBOX_ONLY) {
    const sandboxed = median(rows[`sandbox, ${COMMANDS} commands`]!.wall);
    const bare = median(rows[`no sandbox, ${COMMANDS} commands`]!.wall);
    console.log(
      `  sandbox cost per command  ${format((sandboxed - bare) / COMMANDS)} (target < 15 ms)`,
    );
  }
} finally {
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
}
