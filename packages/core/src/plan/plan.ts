/**
 * One plan model for the three plan shapes XZatoma accepts: the goal shape (`goal`,
 * `context`, `instructions`); the step list (`name`, `steps` with `action`); and the task
 * list that arrives in XZepr events (`goals`, `tasks` with dependencies).
 */

/** One thing the plan asks for. */
export interface PlanInstruction {
  /** 1-based position. */
  readonly number: number;
  /** A stable id: the task's id, or the position as text. */
  readonly id: string;
  /** A short title, when the plan gives one (a step name). */
  readonly title?: string;
  /** What to do. */
  readonly text: string;
  /** Supporting detail (a code block, a command). */
  readonly context?: string;
  /** Ids of instructions that must be done first. */
  readonly dependsOn: readonly string[];
  readonly priority?: string;
}

/** Which shape the plan was written in. */
export type PlanShape = "goal-instructions" | "steps" | "task-list";

/** A validated plan, whatever its file format and shape. */
export interface Plan {
  readonly shape: PlanShape;
  readonly name: string;
  readonly goal: string;
  readonly description?: string;
  /** Context lines (`key: value` or free text). */
  readonly context: readonly string[];
  readonly instructions: readonly PlanInstruction[];
  /** Limits the plan asks for (task lists carry `max_iterations`, `allow_dangerous`). */
  readonly maxTurns?: number;
  readonly allowDangerous?: boolean;
}

/** The file formats plans come in. */
export type PlanFormat = "yaml" | "json" | "markdown";
