// `parallel_subagent`'s tasks: run at most `limit` at once, in task order, each as one
// child; with fail_fast the first failure (or the caller's cancellation) leaves the tasks not
// yet started unstarted.
import type { ChildOutcome, Task } from "./subagent-types.js";

/** What {@link runTasks} needs of the caller. */
export interface TaskPool {
  readonly tasks: readonly Task[];
  readonly limit: number;
  readonly failFast: boolean;
  readonly signal: AbortSignal;
  /** Runs one task; `index` is its place in `tasks`. */
  readonly run: (task: Task, index: number, signal: AbortSignal) => Promise<ChildOutcome>;
}

/** Every task's outcome, in task order. */
export async function runTasks(pool: TaskPool): Promise<ChildOutcome[]> {
  const { tasks, signal } = pool;
  const failFast = new AbortController();
  const onParentAbort = () => failFast.abort(signal.reason);
  if (signal.aborted) onParentAbort();
  else signal.addEventListener("abort", onParentAbort, { once: true });
  const outcomes: ChildOutcome[] = new Array<ChildOutcome>(tasks.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const index = next++;
      const task = tasks[index];
      if (task === undefined) return;
      if (failFast.signal.aborted) {
        outcomes[index] = {
          label: task.label,
          error: "Not started: an earlier task failed (fail_fast) or the run was cancelled.",
          output: "",
          durationMs: 0,
        };
        continue;
      }
      let outcome: ChildOutcome;
      try {
        outcome = await pool.run(task, index, failFast.signal);
      } catch (error) {
        outcome = {
          label: task.label,
          error: `Failed: ${error instanceof Error ? error.message : String(error)}.`,
          output: "",
          durationMs: 0,
        };
      }
      outcomes[index] = outcome;
      if (outcome.error !== undefined && pool.failFast) failFast.abort();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(pool.limit, tasks.length) }, worker));
  } finally {
    signal.removeEventListener("abort", onParentAbort);
  }
  return outcomes;
}
