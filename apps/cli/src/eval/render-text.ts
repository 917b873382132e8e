import { toTerminalSafeLine } from "../render/terminal-safe.js";
import type { EvalReport, EvalSummary } from "./eval-report.js";
import { FAILURE_KINDS } from "./failure-kind.js";
import type { CaseRun } from "./run-case.js";

/** `0.875` as `87.5%`. */
export function percent(rate: number): string {
  return `${(Math.round(rate * 1000) / 10).toString()}%`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** One run as a line: passed or the failure's kind and detail, then its size. */
export function runLine(caseId: string, run: CaseRun, repeat: number): string {
  const mark = run.passed ? "ok  " : "FAIL";
  const attempt = repeat > 1 ? ` #${run.attempt}` : "";
  const size = `${plural(run.turns, "turn")}, ${plural(run.toolCalls, "tool call")}, ${run.tokens.total} tokens, ${(run.durationMs / 1000).toFixed(1)} s`;
  const line = toTerminalSafeLine(`${mark} ${caseId}${attempt} (${size})`);
  if (!run.failure) return line;
  return `${line}\n       ${toTerminalSafeLine(`${run.failure.kind}: ${run.failure.detail}`)}`;
}

/** The summary's lines: cases passed, the pass rate with repeats, means, failures by kind. */
export function summaryLines(summary: EvalSummary): string[] {
  const lines = [
    `${summary.passed} of ${summary.cases} cases passed; pass rate ${percent(summary.passRate)} (${summary.runsPassed} of ${summary.runs} runs)`,
    `mean per run: ${summary.meanTurns} turns, ${summary.meanToolCalls} tool calls, ${summary.meanTokens} tokens, ${(summary.meanDurationMs / 1000).toFixed(1)} s`,
  ];
  const failures = FAILURE_KINDS.filter((kind) => summary.failures[kind] > 0).map(
    (kind) => `${kind} ${summary.failures[kind]}`,
  );
  if (failures.length > 0) lines.push(`failures by kind: ${failures.join(", ")}`);
  return lines;
}

/** The header line of a text report. */
export function headerLine(
  report: Pick<EvalReport, "suite" | "file" | "provider" | "model" | "repeat">,
): string {
  return toTerminalSafeLine(
    `eval ${report.suite} (${report.file}) with ${report.provider} ${report.model}, ${plural(report.repeat, "run")} per case`,
  );
}

/** The whole report as text. */
export function renderText(report: EvalReport): string {
  const lines = [headerLine(report)];
  for (const item of report.cases)
    for (const run of item.runs) lines.push(runLine(item.id, run, report.repeat));
  lines.push(...summaryLines(report.summary));
  return `${lines.join("\n")}\n`;
}
