/** Tasks named one by one at most in a failed `parallel_subagent`'s line; the rest are counted. */
const MAX_TASKS = 4;
/** Characters of each task's error shown. */
const MAX_ERROR = 120;

interface ParallelReport {
  readonly results: readonly { label?: unknown; success?: unknown; error?: unknown }[];
}

function isParallelReport(value: unknown): value is ParallelReport {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { results?: unknown }).results)
  );
}

const shorten = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_ERROR ? `${flat.slice(0, MAX_ERROR - 1)}…` : flat;
};

/**
 * The line a person reads for a failed tool call. A failed `parallel_subagent` answers the
 * model with its whole JSON report; the person gets one line naming the tasks and why each
 * failed. Any other failure is its first line, with the number of lines left out.
 * Not escaped: the caller escapes it for the terminal.
 *
 * @example
 * describeToolFailure("parallel_subagent", '{"results":[{"label":"a","success":false,"error":"Failed: boom."}]}')
 * // "all 1 task failed: a: Failed: boom."
 */
export function describeToolFailure(toolName: string, error: string): string {
  if (toolName === "parallel_subagent") {
    let report: unknown;
    try {
      report = JSON.parse(error);
    } catch {
      report = undefined;
    }
    if (isParallelReport(report)) {
      const failed = report.results.filter((entry) => entry.success !== true);
      const named = failed
        .slice(0, MAX_TASKS)
        .map(
          (entry) =>
            `${typeof entry.label === "string" ? entry.label : "a task"}: ${shorten(typeof entry.error === "string" ? entry.error : "failed")}`,
        );
      const more = failed.length - named.length;
      const tasks = `${report.results.length} task${report.results.length === 1 ? "" : "s"}`;
      return `${failed.length === report.results.length ? `all ${tasks}` : `${failed.length} of ${tasks}`} failed: ${named.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
    }
  }
  const lines = error.trim().split("\n");
  const first = lines[0] ?? "";
  if (first === "") return "failed";
  return lines.length > 1 ? `${first} (${lines.length - 1} more lines)` : first;
}
