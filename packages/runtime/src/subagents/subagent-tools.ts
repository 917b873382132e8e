import { defineTool, toolFailure, toolSuccess, type Tool, type ToolResult } from "@xzatoma/core";
import { INPUT_NODES } from "../input-nodes.generated.js";
import { MODEL_INPUT_SCHEMAS } from "../model-input-schemas.generated.js";
import { runChild } from "./child-run.js";
import { runTasks } from "./parallel-tasks.js";
import type { ChildOutcome, DelegatingLevel, SubagentScope } from "./subagent-types.js";

export { SUBAGENT_TOOL_NAMES } from "./subagent-tool-names.js";
export type {
  ChildInfo,
  DelegatingLevel,
  StartedChildInfo,
  SubagentScope,
} from "./subagent-types.js";

/** A child's outcome as its calling model reads it. */
function toToolResult(outcome: ChildOutcome, depth: number): ToolResult {
  const result = outcome.result;
  const metadata = {
    label: outcome.label,
    depth,
    durationMs: outcome.durationMs,
    ...(result
      ? { stopReason: result.stopReason, turns: result.turns, tokens: result.usage.totalTokens }
      : {}),
  };
  const header = result
    ? `[subagent "${outcome.label}" ${result.stopReason}: ${result.turns} turns, ${result.usage.totalTokens} tokens, depth ${depth}, ${(outcome.durationMs / 1000).toFixed(1)} s]`
    : `[subagent "${outcome.label}" not run]`;
  if (outcome.error === undefined) return toolSuccess(`${header}\n${outcome.output}`, metadata);
  const partial = outcome.output ? `\nWhat it wrote before it stopped:\n${outcome.output}` : "";
  return toolFailure(`${header} ${outcome.error}${partial}`, metadata);
}

/**
 * The `subagent` and `parallel_subagent` tools of the agent at `level`. A child gets a
 * fresh conversation, the scope's provider and model, a subset of `level.tools` (never a
 * tool its parent lacks), the parent's approvals and audit, and, below the depth limit,
 * its own delegation tools one level down. Every child is counted against the run's quota
 * before it starts and while it runs, reported in the top-level event stream and stored in
 * history under its parent.
 */
export function createSubagentTools(scope: SubagentScope, level: DelegatingLevel): Tool[] {
  const { config } = scope;
  const timeoutMs = scope.agentConfig.timeout_seconds * 1000;
  const delegationTools = (childLevel: DelegatingLevel) => createSubagentTools(scope, childLevel);

  const subagent = defineTool({
    name: "subagent",
    description:
      "Delegate one focused task to a subagent: it starts with a fresh conversation and your tools (or the allowed_tools you name), works on task_prompt alone, and returns only its final answer. Use it for self-contained research or changes that would fill your own context.",
    modelInputSchema: MODEL_INPUT_SCHEMAS.subagent,
    inputNode: INPUT_NODES.subagent,
    loadInputSchema: () => import("./subagent-input.js").then((module) => module.taskInput),
    // It reads nothing itself; each call its subagent makes is judged on its own.
    access: "read",
    timeoutMs,
    async execute(task, context) {
      const outcome = await runChild(scope, level, {
        task,
        toolCallId: context.toolCallId,
        signal: context.signal,
        delegationTools,
      });
      return toToolResult(outcome, level.depth + 1);
    },
  });

  const parallel = defineTool({
    name: "parallel_subagent",
    description:
      "Run several independent tasks as subagents at once (each as with the subagent tool). Results come back in task order; one task failing does not stop the others unless fail_fast is set.",
    modelInputSchema: MODEL_INPUT_SCHEMAS.parallel_subagent,
    inputNode: INPUT_NODES.parallel_subagent,
    loadInputSchema: () => import("./subagent-input.js").then((module) => module.parallelInput),
    access: "read",
    timeoutMs,
    async execute(input, context) {
      const startedAt = performance.now();
      const outcomes: ChildOutcome[] = await runTasks({
        tasks: input.tasks,
        limit: Math.min(input.max_concurrent ?? config.max_concurrent, config.max_concurrent),
        failFast: input.fail_fast ?? false,
        signal: context.signal,
        run: (task, index, signal) =>
          runChild(scope, level, {
            task,
            toolCallId: `${context.toolCallId}#${index}`,
            signal,
            delegationTools,
          }),
      });
      const results = outcomes.map((outcome) => ({
        label: outcome.label,
        success: outcome.error === undefined,
        ...(outcome.result ? { stop_reason: outcome.result.stopReason } : {}),
        output: outcome.output,
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
        turns: outcome.result?.turns ?? 0,
        tokens_used: outcome.result?.usage.totalTokens ?? 0,
        duration_ms: outcome.durationMs,
      }));
      const successful = results.filter((entry) => entry.success).length;
      const report = {
        results,
        successful,
        failed: results.length - successful,
        total_duration_ms: Math.round(performance.now() - startedAt),
      };
      const metadata = { tasks: results.length, successful, depth: level.depth + 1 };
      return successful > 0
        ? toolSuccess(JSON.stringify(report, null, 2), metadata)
        : toolFailure(JSON.stringify(report, null, 2), metadata);
    },
  });

  return [subagent, parallel];
}
