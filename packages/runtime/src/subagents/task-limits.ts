/** A task's turn cap may not exceed this, whatever the configuration says. */
export const MAX_TASK_TURNS = 50;
