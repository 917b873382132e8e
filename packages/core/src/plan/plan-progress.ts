import type { Plan } from "./plan.js";

/** Which instructions of a plan are done, for progress reports (`Completed 2/4 instructions`). */
export interface PlanProgress {
  /** Marks instruction `number` (1-based) done; returns false for a number the plan lacks. */
  complete(number: number): boolean;
  isComplete(number: number): boolean;
  readonly completed: number;
  readonly total: number;
  /** `Completed 2/4 instructions` and a checklist, one line per instruction. */
  summary(): string;
}

/** Starts tracking the progress of a plan. */
export function createPlanProgress(plan: Plan): PlanProgress {
  const done = new Set<number>();
  const total = plan.instructions.length;
  return {
    complete(number) {
      if (!Number.isInteger(number) || number < 1 || number > total) return false;
      done.add(number);
      return true;
    },
    isComplete: (number) => done.has(number),
    get completed() {
      return done.size;
    },
    total,
    summary() {
      const lines = plan.instructions.map(
        (instruction) =>
          `${done.has(instruction.number) ? "✓" : "○"} ${instruction.title ?? instruction.text}`,
      );
      return [`Completed ${done.size}/${total} instructions`, ...lines].join("\n");
    },
  };
}
