import { readFile } from "node:fs/promises";
import { z } from "zod";
import { UsageError } from "../usage-error.js";
import { FAILURE_KINDS, type FailureKind } from "./failure-kind.js";
import { percent } from "./render-text.js";

/** What a comparison reads of a report; the rest is not needed and not checked. */
const storedReportSchema = z.object({
  version: z.literal(1),
  suite: z.string(),
  provider: z.string(),
  model: z.string(),
  startedAt: z.string(),
  cases: z.array(
    z.object({
      id: z.string(),
      passRate: z.number(),
      runs: z.array(
        z.object({
          failure: z.object({ kind: z.enum(FAILURE_KINDS), detail: z.string() }).optional(),
        }),
      ),
    }),
  ),
  summary: z.object({
    cases: z.number(),
    passed: z.number(),
    passRate: z.number(),
    meanTurns: z.number(),
    meanTokens: z.number(),
    failures: z.record(z.enum(FAILURE_KINDS), z.number()),
  }),
});

type StoredReport = z.output<typeof storedReportSchema>;

/** One case's change between two reports. */
export interface CaseChange {
  readonly id: string;
  /** `fixed` (now always passes, did not), `broken` (passed, now does not), `changed`. */
  readonly change: "fixed" | "broken" | "changed" | "only-before" | "only-after";
  readonly before?: number;
  readonly after?: number;
  /** The failure kinds of the later runs. */
  readonly kindsAfter: readonly FailureKind[];
}

/** What `xzatoma eval compare A B` reports. */
export interface ReportComparison {
  readonly before: { readonly file: string; readonly label: string };
  readonly after: { readonly file: string; readonly label: string };
  readonly passRate: { readonly before: number; readonly after: number };
  readonly casesPassed: { readonly before: number; readonly after: number };
  readonly meanTurns: { readonly before: number; readonly after: number };
  readonly meanTokens: { readonly before: number; readonly after: number };
  readonly failures: Readonly<Record<FailureKind, { before: number; after: number }>>;
  /** Cases whose pass rate changed, or that only one report has. */
  readonly cases: readonly CaseChange[];
}

/** Reads a report written by `xzatoma eval --json` (or `--out`'s `report.json`). */
export async function readReport(file: string): Promise<StoredReport> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new UsageError(
      `${file}: not an eval report: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
    );
  }
  const parsed = storedReportSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `${file}: not an eval report (version 1): field ${issue?.path.join(".") || "(the report)"}: ${issue?.message ?? "invalid"}.`,
    );
  }
  return parsed.data;
}

function kindsOf(item: StoredReport["cases"][number]): FailureKind[] {
  return [...new Set(item.runs.flatMap((run) => (run.failure ? [run.failure.kind] : [])))];
}

/** The differences between two reports of the same suite (or of two suites sharing ids). */
export function compareReports(
  before: StoredReport,
  after: StoredReport,
  files: { before: string; after: string },
): ReportComparison {
  const label = (report: StoredReport) =>
    `${report.suite}, ${report.provider} ${report.model}, ${report.startedAt}`;
  const beforeCases = new Map(before.cases.map((item) => [item.id, item]));
  const afterCases = new Map(after.cases.map((item) => [item.id, item]));
  const cases: CaseChange[] = [];
  for (const [id, earlier] of beforeCases) {
    const later = afterCases.get(id);
    if (!later) {
      cases.push({ id, change: "only-before", before: earlier.passRate, kindsAfter: [] });
      continue;
    }
    if (later.passRate === earlier.passRate) continue;
    const change = later.passRate === 1 ? "fixed" : earlier.passRate === 1 ? "broken" : "changed";
    cases.push({
      id,
      change,
      before: earlier.passRate,
      after: later.passRate,
      kindsAfter: kindsOf(later),
    });
  }
  for (const [id, later] of afterCases)
    if (!beforeCases.has(id))
      cases.push({ id, change: "only-after", after: later.passRate, kindsAfter: kindsOf(later) });
  const pair = (pick: (report: StoredReport) => number) => ({
    before: pick(before),
    after: pick(after),
  });
  return {
    before: { file: files.before, label: label(before) },
    after: { file: files.after, label: label(after) },
    passRate: pair((report) => report.summary.passRate),
    casesPassed: pair((report) => report.summary.passed),
    meanTurns: pair((report) => report.summary.meanTurns),
    meanTokens: pair((report) => report.summary.meanTokens),
    failures: Object.fromEntries(
      FAILURE_KINDS.map((kind) => [kind, pair((report) => report.summary.failures[kind] ?? 0)]),
    ) as Record<FailureKind, { before: number; after: number }>,
    cases,
  };
}

function arrow(before: number, after: number, show: (value: number) => string = String): string {
  return before === after ? show(after) : `${show(before)} -> ${show(after)}`;
}

/** A comparison as text. */
export function renderComparison(comparison: ReportComparison): string {
  const lines = [
    `before: ${comparison.before.file} (${comparison.before.label})`,
    `after:  ${comparison.after.file} (${comparison.after.label})`,
    `pass rate ${arrow(comparison.passRate.before, comparison.passRate.after, percent)}; cases passed ${arrow(comparison.casesPassed.before, comparison.casesPassed.after)}; mean turns ${arrow(comparison.meanTurns.before, comparison.meanTurns.after)}; mean tokens ${arrow(comparison.meanTokens.before, comparison.meanTokens.after)}`,
  ];
  const kinds = FAILURE_KINDS.filter(
    (kind) => comparison.failures[kind].before !== comparison.failures[kind].after,
  ).map(
    (kind) => `${kind} ${comparison.failures[kind].before} -> ${comparison.failures[kind].after}`,
  );
  if (kinds.length > 0) lines.push(`failures by kind: ${kinds.join(", ")}`);
  if (comparison.cases.length === 0) lines.push("no case changed its pass rate");
  for (const item of comparison.cases) {
    const only = item.before ?? item.after;
    const rates =
      item.before !== undefined && item.after !== undefined
        ? ` ${percent(item.before)} -> ${percent(item.after)}`
        : only !== undefined
          ? ` ${percent(only)}`
          : "";
    const kindsAfter = item.kindsAfter.length > 0 ? ` (now ${item.kindsAfter.join(", ")})` : "";
    lines.push(`${item.change.padEnd(11)} ${item.id}${rates}${kindsAfter}`);
  }
  return `${lines.join("\n")}\n`;
}
