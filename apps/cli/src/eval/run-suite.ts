import path from "node:path";
import type { Provider } from "@xzatoma/providers";
import type { RuntimeConfig } from "@xzatoma/runtime";
import { caseReport, summarize, type CaseReport, type EvalReport } from "./eval-report.js";
import { runCase, type CaseRun } from "./run-case.js";
import type { EvalSuite } from "./suite-schema.js";

/** Options of {@link runSuite}. */
export interface RunSuiteOptions {
  readonly suite: EvalSuite;
  /** The suite file as named on the command line. */
  readonly file: string;
  readonly config: RuntimeConfig;
  readonly provider: Provider;
  readonly configPath?: string;
  /** Runs of each case (default 1). */
  readonly repeat?: number;
  /** Only the cases with these ids (default all). */
  readonly only?: readonly string[];
  readonly warn: (message: string) => void;
  /** Called after each run, for progress. */
  readonly onRun?: (caseId: string, run: CaseRun) => void;
  readonly keep?: boolean;
  /**
   * Stops the eval (Ctrl-C): the run in flight ends, is left out of the report, and no
   * other case starts; the report holds the runs finished before and says `interrupted`.
   */
  readonly signal?: AbortSignal;
}

/**
 * Runs every case of a suite `repeat` times, one after another (cases share the machine
 * and, for a local model, the model), and reports.
 */
export async function runSuite(options: RunSuiteOptions): Promise<EvalReport> {
  const repeat = options.repeat ?? 1;
  const startedAt = new Date();
  const clock = performance.now();
  const selected = options.only
    ? options.suite.cases.filter((item) => options.only?.includes(item.id))
    : options.suite.cases;
  const cases: CaseReport[] = [];
  for (const evalCase of selected) {
    const runs: CaseRun[] = [];
    for (let attempt = 1; attempt <= repeat && !options.signal?.aborted; attempt += 1) {
      const run = await runCase(
        evalCase,
        {
          config: options.config,
          provider: options.provider,
          warn: options.warn,
          ...(options.configPath ? { configPath: options.configPath } : {}),
          ...(options.keep ? { keep: true } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        },
        attempt,
      );
      if (options.signal?.aborted) break;
      runs.push(run);
      options.onRun?.(evalCase.id, run);
    }
    if (runs.length > 0) cases.push(caseReport(evalCase.id, runs));
    if (options.signal?.aborted) break;
  }
  return {
    version: 1,
    suite: options.suite.name,
    file: options.file,
    provider: options.provider.name,
    // A local model is a file: its name, not where this machine keeps it.
    model:
      options.provider.name === "local"
        ? path.basename(options.provider.defaultModel)
        : options.provider.defaultModel,
    repeat,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - clock),
    ...(options.signal?.aborted ? { interrupted: true as const } : {}),
    cases,
    summary: summarize(cases),
  };
}
