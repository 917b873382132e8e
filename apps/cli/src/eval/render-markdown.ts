import type { EvalReport } from "./eval-report.js";
import { FAILURE_KINDS } from "./failure-kind.js";
import { percent } from "./render-text.js";

/** Text for a Markdown table cell: one line, pipes and markup characters escaped. */
function cell(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/[\\|`*_[\]<>]/g, (character) => `\\${character}`)
    .slice(0, 300);
}

function mean(values: readonly number[]): number {
  return values.length === 0
    ? 0
    : Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 10) / 10;
}

/**
 * The report as Markdown (`report.md` in `--out`): the summary, the chart, a table of cases
 * (pass rate, mean turns, tool calls, tokens and seconds over the runs) and every failure
 * with its kind and detail.
 */
export function renderMarkdown(report: EvalReport, chartFile = "chart.svg"): string {
  const { summary } = report;
  const lines = [
    `# Eval: ${cell(report.suite)}`,
    "",
    `Suite \`${cell(report.file)}\`, provider ${cell(report.provider)}, model ${cell(report.model)}, ${report.repeat} run(s) per case, started ${report.startedAt}.`,
    "",
    `**${summary.passed} of ${summary.cases} cases passed**; pass rate ${percent(summary.passRate)} (${summary.runsPassed} of ${summary.runs} runs); mean ${summary.meanTurns} turns, ${summary.meanToolCalls} tool calls, ${summary.meanTokens} tokens, ${(summary.meanDurationMs / 1000).toFixed(1)} s per run.`,
    "",
    `![Pass rate per case and failures by kind](${chartFile})`,
    "",
    "| case | passed | pass rate | turns | tool calls | tokens | seconds | failures |",
    "| ---- | ------ | --------- | ----- | ---------- | ------ | ------- | -------- |",
  ];
  for (const item of report.cases) {
    const kinds = [...new Set(item.runs.flatMap((run) => (run.failure ? [run.failure.kind] : [])))];
    lines.push(
      `| ${cell(item.id)} | ${item.passed ? "yes" : "no"} | ${percent(item.passRate)} | ${mean(item.runs.map((run) => run.turns))} | ${mean(item.runs.map((run) => run.toolCalls))} | ${mean(item.runs.map((run) => run.tokens.total))} | ${(mean(item.runs.map((run) => run.durationMs)) / 1000).toFixed(1)} | ${kinds.join(", ")} |`,
    );
  }
  lines.push("", "## Failures by kind", "", "| kind | runs |", "| ---- | ---- |");
  for (const kind of FAILURE_KINDS) lines.push(`| ${kind} | ${summary.failures[kind]} |`);
  const failed = report.cases.flatMap((item) =>
    item.runs.flatMap((run) =>
      run.failure
        ? [
            `- **${cell(item.id)}**${report.repeat > 1 ? ` #${run.attempt}` : ""}: ${run.failure.kind}: ${cell(run.failure.detail)}`,
          ]
        : [],
    ),
  );
  if (failed.length > 0) lines.push("", "## Failed runs", "", ...failed);
  return `${lines.join("\n")}\n`;
}
