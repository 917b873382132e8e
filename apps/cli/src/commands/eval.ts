import { mkdir, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { createProvider } from "@xzatoma/providers";
import { loadConfig } from "@xzatoma/runtime";
import {
  FLAG_MAPPINGS,
  pickExplicitFlags,
  type CommandOptionSource,
} from "../config/flag-mapping.js";
import { compareReports, readReport, renderComparison } from "../eval/compare-reports.js";
import { loadSuite } from "../eval/load-suite.js";
import { renderChart } from "../eval/render-chart.js";
import { renderMarkdown } from "../eval/render-markdown.js";
import { headerLine, renderText, runLine, summaryLines } from "../eval/render-text.js";
import { runSuite } from "../eval/run-suite.js";
import { ExitCode, exitCodeForSignal, STOP_SIGNALS, type StopSignal } from "../exit-codes.js";
import { toTerminalSafe, toTerminalSafeJson } from "../render/terminal-safe.js";
import { UsageError } from "../usage-error.js";
import { applyMemorySettings } from "../session/memory-settings.js";

/** Options of `xzatoma eval SUITE` as commander parsed them. */
export interface EvalCommandOptions {
  /** Runs of each case. */
  readonly repeat?: number;
  /** Print the report as JSON on stdout. */
  readonly json?: boolean;
  /** Write report.json, report.md and chart.svg into this directory. */
  readonly out?: string;
  /** Only these case ids. */
  readonly case?: readonly string[];
  /** Keep each case's temporary directory. */
  readonly keep?: boolean;
  readonly config?: string;
}

/**
 * `xzatoma eval SUITE`: runs every case of a suite through the runtime `xzatoma run` uses
 * and reports. Exit 0 when every case passed, 1 when one did not, 2 when the suite is not
 * valid (the message names the file, the case and the field).
 */
export async function evalCommand(
  file: string,
  options: EvalCommandOptions,
  command: CommandOptionSource,
): Promise<number> {
  const suite = await loadSuite(file);
  const known = new Set(suite.cases.map((item) => item.id));
  const unknown = (options.case ?? []).filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new UsageError(`--case: ${file} has no case '${unknown.join("', '")}'.`);
  const warn = (message: string) => process.stderr.write(`xzatoma: ${toTerminalSafe(message)}\n`);
  // A long-lived process: its memory settings now (see session/memory-settings.ts).
  applyMemorySettings();
  const loaded = await loadConfig({
    ...(options.config ? { configPath: options.config } : {}),
    env: process.env,
    flags: pickExplicitFlags(command),
    flagMappings: FLAG_MAPPINGS,
    homeDir: homedir(),
    cwd: process.cwd(),
  });
  for (const warning of loaded.warnings ?? []) warn(warning);
  const { config } = loaded;
  const provider = createProvider(config.provider, {
    env: process.env,
    warn,
    maxContextTokens: config.agent.conversation.max_tokens,
    dataDir: config.persistence.data_dir,
  });
  const repeat = options.repeat ?? 1;
  // Progress goes to stdout as the report's own lines, or to stderr beside --json.
  const progress = options.json ? process.stderr : process.stdout;
  progress.write(
    `${headerLine({ suite: suite.name, file, provider: provider.name, model: path.basename(provider.defaultModel), repeat })}\n`,
  );
  // Ctrl-C, SIGTERM and SIGHUP stop the case in flight; the report keeps what finished.
  const controller = new AbortController();
  let stoppedBy: StopSignal | undefined;
  const onStop = (signal: StopSignal) => {
    stoppedBy ??= signal;
    controller.abort();
  };
  for (const signal of STOP_SIGNALS) process.once(signal, onStop);
  const report = await runSuite({
    suite,
    file,
    config,
    provider,
    ...(loaded.configPath ? { configPath: loaded.configPath } : {}),
    repeat,
    ...(options.case && options.case.length > 0 ? { only: options.case } : {}),
    warn,
    onRun: (caseId, run) => progress.write(`${runLine(caseId, run, repeat)}\n`),
    ...(options.keep ? { keep: true } : {}),
    signal: controller.signal,
  }).finally(() => {
    for (const signal of STOP_SIGNALS) process.off(signal, onStop);
  });
  if (stoppedBy) progress.write("interrupted: the report holds the runs that finished\n");
  if (options.json) process.stdout.write(`${toTerminalSafeJson(report, 2)}\n`);
  else process.stdout.write(`${toTerminalSafe(summaryLines(report.summary).join("\n"))}\n`);
  if (options.out) {
    await mkdir(options.out, { recursive: true });
    await writeFile(path.join(options.out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
    await writeFile(path.join(options.out, "report.md"), renderMarkdown(report, "chart.svg"));
    await writeFile(path.join(options.out, "chart.svg"), renderChart(report));
    await writeFile(path.join(options.out, "report.txt"), renderText(report));
    if (!options.json)
      process.stdout.write(
        `report: ${toTerminalSafe(path.join(options.out, "report.md"))} (report.json, chart.svg beside it)\n`,
      );
  }
  if (stoppedBy) return exitCodeForSignal(stoppedBy);
  return report.summary.passed === report.summary.cases ? ExitCode.ok : ExitCode.failure;
}

/** `xzatoma eval compare A.json B.json`: what changed from one report to the other. */
export async function evalCompareCommand(
  before: string,
  after: string,
  options: { readonly json?: boolean },
): Promise<number> {
  const comparison = compareReports(await readReport(before), await readReport(after), {
    before,
    after,
  });
  process.stdout.write(
    options.json
      ? `${toTerminalSafeJson(comparison, 2)}\n`
      : toTerminalSafe(renderComparison(comparison)),
  );
  return ExitCode.ok;
}
