import { FAILURE_KINDS, type FailureKind } from "./failure-kind.js";
import type { CaseRun } from "./run-case.js";

/** A case's runs and what they add up to. */
export interface CaseReport {
  readonly id: string;
  /** Every run passed. */
  readonly passed: boolean;
  /** Passed runs over runs, 0 to 1. */
  readonly passRate: number;
  readonly runs: readonly CaseRun[];
}

/** The totals of a report. */
export interface EvalSummary {
  readonly cases: number;
  /** Cases whose every run passed. */
  readonly passed: number;
  readonly runs: number;
  readonly runsPassed: number;
  /** Passed runs over runs, 0 to 1 (repeats included). */
  readonly passRate: number;
  /** Means over all runs. */
  readonly meanTurns: number;
  readonly meanTokens: number;
  readonly meanToolCalls: number;
  readonly meanDurationMs: number;
  /** Failed runs by kind; every kind is listed, most at 0. */
  readonly failures: Readonly<Record<FailureKind, number>>;
}

/** What `xzatoma eval --json` prints and `--out` saves as `report.json`. */
export interface EvalReport {
  /** The report's format; a reader refuses a version it does not know. */
  readonly version: 1;
  readonly suite: string;
  /** The suite file as it was named on the command line. */
  readonly file: string;
  readonly provider: string;
  readonly model: string;
  readonly repeat: number;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly durationMs: number;
  /** Set when Ctrl-C (or SIGTERM, SIGHUP) stopped the eval: the cases are those finished. */
  readonly interrupted?: true;
  readonly cases: readonly CaseReport[];
  readonly summary: EvalSummary;
}

function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  return Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 10) / 10;
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000;
}

/** A case's report from its runs. */
export function caseReport(id: string, runs: readonly CaseRun[]): CaseReport {
  const passedRuns = runs.filter((run) => run.passed).length;
  return {
    id,
    passed: runs.length > 0 && passedRuns === runs.length,
    passRate: ratio(passedRuns, runs.length),
    runs,
  };
}

/** The summary of the cases' reports. */
export function summarize(cases: readonly CaseReport[]): EvalSummary {
  const runs = cases.flatMap((item) => item.runs);
  const failures = Object.fromEntries(FAILURE_KINDS.map((kind) => [kind, 0])) as Record<
    FailureKind,
    number
  >;
  for (const run of runs) if (run.failure) failures[run.failure.kind] += 1;
  const runsPassed = runs.filter((run) => run.passed).length;
  return {
    cases: cases.length,
    passed: cases.filter((item) => item.passed).length,
    runs: runs.length,
    runsPassed,
    passRate: ratio(runsPassed, runs.length),
    meanTurns: mean(runs.map((run) => run.turns)),
    meanTokens: mean(runs.map((run) => run.tokens.total)),
    meanToolCalls: mean(runs.map((run) => run.toolCalls)),
    meanDurationMs: mean(runs.map((run) => run.durationMs)),
    failures,
  };
}
