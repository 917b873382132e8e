// Every figure of "lean, fast and publishable" (issue 12) in one table: peak RSS at 100 turns
// (read and shell variants), launch to the first model request beside a bare Node loop, the
// fixed part of the first request, cold and warm grep against ripgrep, install size and
// package count, and per-turn overhead. It runs the benchmarks that measure each
// (loop-overhead, command-run, first-request, file-search, install-size) as child processes
// and reads their output, so each figure is measured the one way that benchmark documents.
// Beside each figure: the 1-minute load average before and after it was measured, as timings
// on a shared machine mean little without it (memory and byte counts barely move with load).
//
//   node bench/issue-12.ts [--only memory,start-up,grep,install] [--json]
//
// Needs the built packages (`npx nx run-many -t build`), GNU time, ripgrep, and for
// install-size what that benchmark needs. A benchmark that fails is reported in its rows and
// makes the exit code 1; the others still run.
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { ROOT, run } from "./measure.ts";

interface Figure {
  readonly figure: string;
  readonly value: string;
  readonly target: string;
  /** true: meets the target; false: does not; undefined: no target or not measured. */
  readonly met: boolean | undefined;
  readonly load: string;
  readonly source: string;
}

interface Bench {
  readonly group: "memory" | "start-up" | "grep" | "install";
  readonly script: string;
  readonly args: readonly string[];
  /** Turns the benchmark's stdout into figures; throws when a line it needs is missing. */
  readonly read: (output: string) => Omit<Figure, "load" | "source">[];
}

const GROUPS = ["memory", "start-up", "grep", "install"] as const;

/** The first match of `pattern` in `output`, or an error naming what was expected. */
function find(output: string, pattern: RegExp, what: string): RegExpExecArray {
  const match = pattern.exec(output);
  if (!match) throw new Error(`no ${what} in the output (expected ${String(pattern)})`);
  return match;
}

const BENCHES: readonly Bench[] = [
  {
    group: "memory",
    script: "loop-overhead.ts",
    args: [],
    read: (output) => {
      const peak = Number(find(output, /peak RSS at 100\s+([\d.]+) MiB/, "peak RSS")[1]);
      const perTurn = Number(find(output, /  per turn\s+(-?[\d.]+) ms/, "per-turn time")[1]);
      const cpuPerTurn = Number(
        find(output, /CPU per turn\s+(-?[\d.]+) ms/, "per-turn CPU time")[1],
      );
      return [
        {
          figure: "peak RSS, 100 read turns",
          value: `${peak.toFixed(1)} MiB`,
          target: "< 120 MiB",
          met: peak < 120,
        },
        {
          figure: "agent overhead per turn (wall)",
          value: `${perTurn.toFixed(1)} ms`,
          target: "<= 5 ms",
          met: perTurn <= 5,
        },
        {
          figure: "agent overhead per turn (CPU)",
          value: `${cpuPerTurn.toFixed(1)} ms`,
          target: "<= 5 ms",
          met: cpuPerTurn <= 5,
        },
      ];
    },
  },
  {
    group: "memory",
    script: "command-run.ts",
    args: ["--commands", "100", "--sandbox-only"],
    read: (output) => {
      const match = find(
        output,
        /sandbox, 100 commands\s+wall ([\d.]+) ms\s+peak RSS ([\d.]+) MiB/,
        "the 100-command row",
      );
      const peak = Number(match[2]);
      return [
        {
          figure: "peak RSS, 100 terminal commands (sandbox)",
          value: `${peak.toFixed(1)} MiB`,
          target: "< 120 MiB",
          met: peak < 120,
        },
      ];
    },
  },
  {
    group: "start-up",
    script: "first-request.ts",
    args: [],
    read: (output) => {
      const launch = find(
        output,
        /launch to first model request, median of \d+: ([\d.]+) ms \(([\d.]+)x the bare loop/,
        "launch time",
      );
      const bare = find(output, /bare node -e loop, median of \d+: ([\d.]+) ms/, "bare loop");
      const fixed = Number(find(output, /in write mode: (\d+) bytes/, "fixed request size")[1]);
      const ratio = Number(launch[2]);
      return [
        {
          figure: "launch to first model request",
          value: `${Number(launch[1]).toFixed(0)} ms (${ratio.toFixed(2)}x)`,
          target: "<= 1.5x bare loop",
          met: ratio <= 1.5,
        },
        {
          figure: "  bare Node loop (node -e fetch)",
          value: `${Number(bare[1]).toFixed(0)} ms`,
          target: "",
          met: undefined,
        },
        {
          figure: "fixed part of the first request (write)",
          value: `${fixed} B`,
          target: "<= 8192 B",
          met: fixed <= 8192,
        },
      ];
    },
  },
  {
    group: "grep",
    script: "file-search.ts",
    args: [],
    read: (output) => {
      // Rows: label, our time, reference label, reference time, ratio.
      const row = (label: RegExp, what: string) => {
        const match = find(
          output,
          new RegExp(`${label.source}\\s+([\\d.]+) ms\\s+rg -n\\s+([\\d.]+) ms\\s+([\\d.]+)x`),
          what,
        );
        return { ours: Number(match[1]), rg: Number(match[2]), ratio: Number(match[3]) };
      };
      const warm = row(/grep 'XZ_BENCH_NEEDLE'/, "the warm grep row");
      const cold = row(/grep 'XZ_BENCH_NEEDLE', first call of a new process/, "the cold grep row");
      const floor = row(
        /the floor: one Node thread walks, reads and indexOf's[^\n]*?/,
        "the floor row",
      );
      return [
        {
          figure: "grep, cold (first call of a process)",
          value: `${cold.ours.toFixed(1)} ms (${cold.ratio.toFixed(2)}x rg ${cold.rg.toFixed(1)} ms)`,
          target: "<= 2x rg",
          met: cold.ratio <= 2,
        },
        {
          figure: "  floor: bare Node walk + read, cold",
          value: `${floor.ours.toFixed(1)} ms (${floor.ratio.toFixed(2)}x rg)`,
          target: "",
          met: undefined,
        },
        {
          figure: "grep, warm",
          value: `${warm.ours.toFixed(1)} ms (${warm.ratio.toFixed(2)}x rg ${warm.rg.toFixed(1)} ms)`,
          target: "<= 2x rg",
          met: warm.ratio <= 2,
        },
      ];
    },
  },
  {
    group: "install",
    script: "install-size.ts",
    args: [],
    read: (output) => {
      const match = find(output, /node_modules\s+([\d.]+) MB, (\d+) packages/, "install size");
      const megabytes = Number(match[1]);
      return [
        {
          figure: "install size of @xzatoma/cli",
          value: `${megabytes.toFixed(1)} MB`,
          target: "< 50 MB",
          met: megabytes < 50,
        },
        {
          figure: "  packages installed",
          value: match[2]!,
          target: "",
          met: undefined,
        },
      ];
    },
  },
];

const { values } = parseArgs({
  options: { only: { type: "string" }, json: { type: "boolean" } },
});
const wanted = values.only?.split(",").map((name) => name.trim()) ?? [...GROUPS];
const unknown = wanted.filter((name) => !(GROUPS as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(
    `--only: unknown group '${unknown.join("', '")}'; choose from ${GROUPS.join(", ")}`,
  );
  process.exit(2);
}

const figures: Figure[] = [];
let failed = false;
for (const bench of BENCHES.filter((candidate) => wanted.includes(candidate.group))) {
  const before = loadavg()[0]!;
  process.stderr.write(`running bench/${bench.script} ${bench.args.join(" ")}...\n`);
  const result = await run(process.execPath, [
    path.join(ROOT, "bench", bench.script),
    ...bench.args,
  ]);
  const load = `${before.toFixed(1)}-${loadavg()[0]!.toFixed(1)}`;
  const source = [bench.script, ...bench.args].join(" ");
  try {
    if (result.code !== 0) {
      // Node ends an uncaught error with its version: the error's own line says more.
      const lines = result.stderr.trim().split("\n");
      const reason = lines.find((line) => /Error\b/.test(line)) ?? lines.at(-1);
      throw new Error(`exited ${String(result.code)}: ${reason?.trim() ?? "no output"}`);
    }
    for (const figure of bench.read(result.stdout)) figures.push({ ...figure, load, source });
  } catch (error) {
    failed = true;
    const message = error instanceof Error ? error.message : String(error);
    figures.push({
      figure: `bench/${source}`,
      value: "failed",
      target: message,
      met: false,
      load,
      source,
    });
  }
}

if (values.json) {
  console.log(JSON.stringify(figures, undefined, 2));
} else {
  const header = ["figure", "value", "target", "met", "load (1 min)", "measured by bench/"];
  const rows = figures.map((figure) => [
    figure.figure,
    figure.value,
    figure.target,
    figure.met === undefined ? "" : figure.met ? "yes" : "no",
    figure.load,
    figure.source,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd();
  console.log(`issue 12 figures (node ${process.version}, ${new Date().toISOString()})`);
  console.log(line(header));
  console.log(line(widths.map((width) => "-".repeat(width))));
  for (const row of rows) console.log(line(row));
}
process.exitCode = failed ? 1 : 0;
