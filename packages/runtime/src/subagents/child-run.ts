// One child of a delegation tool: refused before it starts (depth, unknown tools, quota),
// or built with its tools, prompt and limits, run under its parent's signal and the tree's
// quota, recorded in history under its parent and reported in the top-level event stream.
import {
  Agent,
  createToolRegistry,
  RunStop,
  type AgentResult,
  type SubagentErrorType,
  type Tool,
} from "@xzatoma/core";
import { createHistoryRecorder, type HistoryRecorder } from "@xzatoma/persistence";
import { agentOptionsForWindow } from "../context-budget.js";
import { runUntilStopHooksAgree, withPromptContext } from "../hooks/session-hooks.js";
import { createSystemPrompt } from "../system-prompt.js";
import { selectTools } from "./select-tools.js";
import type {
  ChildInfo,
  ChildOutcome,
  DelegatingLevel,
  SubagentScope,
  Task,
} from "./subagent-types.js";
import { MAX_TASK_TURNS } from "./task-limits.js";

const DEFAULT_SUMMARY_PROMPT = "Summarise your findings concisely.";

/** One call's child: its task, the call it answers and the signal it stops with. */
export interface ChildRun {
  readonly task: Task;
  readonly toolCallId: string;
  readonly signal: AbortSignal;
  /** The delegation tools of the child's own level, when it may delegate further. */
  readonly delegationTools: (level: DelegatingLevel) => Tool[];
}

/** `text` cut to `maxBytes` of UTF-8, marked as cut. */
function cut(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return text;
  let end = Math.min(text.length, maxBytes);
  while (Buffer.byteLength(text.slice(0, end), "utf8") > maxBytes - 20) end -= 1;
  return `${text.slice(0, end)}\n... (truncated)`;
}

/**
 * Runs one child of the agent at `level` and says how it ended. A call refused before the
 * child started (too deep, tools its parent lacks, the quota used up, an agent that cannot
 * be built) is counted and answered with the reason, for the calling model to read.
 */
export async function runChild(
  scope: SubagentScope,
  level: DelegatingLevel,
  run: ChildRun,
): Promise<ChildOutcome> {
  const { config } = scope;
  const { task, toolCallId, signal } = run;
  const startedAt = performance.now();
  const depth = level.depth + 1;
  const label = task.label;
  const elapsed = () => Math.round(performance.now() - startedAt);
  const info: ChildInfo = {
    label,
    depth,
    toolCallId,
    ...(level.label !== undefined ? { parent: level.label } : {}),
  };
  /** A call refused before its child started: counted, and read by the calling model. */
  const refuse = (errorType: SubagentErrorType, error: string): ChildOutcome => {
    scope.refused?.({ type: "subagent-refused", turn: scope.turn(), ...info, errorType, error });
    return { label, error, output: "", durationMs: elapsed() };
  };
  if (level.depth >= config.max_depth) {
    return refuse(
      "max_depth_reached",
      `Maximum subagent depth (${config.max_depth}) reached: this agent is at depth ${level.depth} and cannot delegate further. Do the task yourself.`,
    );
  }
  const selected = selectTools(level.tools, task.allowed_tools);
  if ("error" in selected) return refuse("invalid_input", selected.error);
  const quota = scope.quota();
  const refused = quota.reserve();
  if (refused) return refuse("quota_exceeded", `Not started: ${refused}.`);

  const model = scope.model();
  let child: Agent | undefined;
  let recorder: HistoryRecorder | undefined;
  const parentId = scope.history && config.persistence_enabled ? level.conversationId() : undefined;
  if (scope.history && config.persistence_enabled) {
    recorder = createHistoryRecorder(scope.history, {
      title: () => label,
      describe: () => ({ provider: scope.provider.name, model }),
      entries: () => child?.conversation.entries() ?? [],
      ...(parentId !== undefined ? { parent: { id: parentId, label } } : {}),
    });
  }
  const childLevel: DelegatingLevel = {
    depth,
    tools: selected.tools,
    label,
    conversationId: () => recorder?.store(),
  };
  const tools = [...selected.tools, ...(selected.delegate ? run.delegationTools(childLevel) : [])];
  const registry = createToolRegistry({ maxOutputBytes: scope.maxOutputBytes });
  for (const tool of tools) registry.register(tool);
  const fromConfig = agentOptionsForWindow(
    scope.agentConfig,
    await scope.provider.resolveContextWindow(model),
    registry,
  );
  try {
    child = new Agent({
      ...fromConfig,
      model: scope.provider.languageModel(model),
      tools: registry,
      systemPrompt: [
        createSystemPrompt({ workspace: scope.workspace, toolNames: registry.names() }),
        "",
        `You are a subagent (depth ${depth}) working on one task for another agent, which reads only your final answer. Do the task with your tools, then answer with what it asked for.`,
      ].join("\n"),
      approve: scope.approve,
      ...(scope.audit ? { audit: scope.audit } : {}),
      limits: {
        ...fromConfig.limits,
        maxTurns: Math.min(task.max_turns ?? config.default_max_turns, MAX_TASK_TURNS),
      },
    });
  } catch (error) {
    return refuse(
      "initialization_failed",
      `The subagent could not start: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  // The child stops with its parent, and with the whole tree once the quota trips (its
  // tokens or another agent's, or the tree's time).
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(signal.reason);
  const onQuota = () => controller.abort(new RunStop("quota"));
  if (signal.aborted) onParentAbort();
  else signal.addEventListener("abort", onParentAbort, { once: true });
  if (quota.signal.aborted) onQuota();
  else quota.signal.addEventListener("abort", onQuota, { once: true });
  const observer = scope.observe?.({ ...info, provider: scope.provider.name, model });
  scope.emit({ type: "subagent-started", turn: scope.turn(), ...info });
  let result: AgentResult;
  try {
    const hookInfo = { agentId: `${toolCallId}:${label}`, label, depth };
    const hooks = scope.hooks;
    const added = hooks ? await hooks.subagentStart(hookInfo) : [];
    const started = child;
    const runOnce = (input: string) =>
      started.run(input, {
        signal: controller.signal,
        onEvent: (event) => {
          recorder?.onEvent(event);
          // Stored as soon as it asks its model: a tree killed mid-child still shows it.
          if (event.type === "turn-started" && event.turn === 1) recorder?.store();
          observer?.(event);
          // A response past the budget, a final answer included, trips the quota; so does
          // a tool call past it, before it runs.
          if (event.type === "usage") quota.spend(event.usage);
          if (event.type === "tool-call-requested") quota.call();
        },
      });
    const prompt = withPromptContext(
      `${task.task_prompt}\n\nWhen you are done, answer with this: ${task.summary_prompt ?? DEFAULT_SUMMARY_PROMPT}`,
      "SubagentStart",
      added,
    );
    // `SubagentStop` hooks may send the child on, with their reason as its next message.
    const running = hooks
      ? runUntilStopHooksAgree(hooks, prompt, runOnce, "SubagentStop", (message, active) =>
          hooks.subagentStop(hookInfo, message, active),
        )
      : runOnce(prompt);
    scope.track(running);
    result = await running;
  } finally {
    signal.removeEventListener("abort", onParentAbort);
    quota.signal.removeEventListener("abort", onQuota);
  }
  const error =
    result.stopReason === "completed"
      ? undefined
      : result.stopReason === "quota"
        ? `Stopped: ${quota.exceeded?.message ?? "the run's quota is used up (agent.quota)"}.`
        : result.stopReason === "error"
          ? `Failed: ${result.error?.message ?? "the model failed"}.`
          : `Stopped before finishing (${result.stopReason}).`;
  scope.emit({
    type: "subagent-finished",
    turn: scope.turn(),
    ...info,
    stopReason: result.stopReason,
    turns: result.turns,
    usage: result.usage,
    durationMs: result.durationMs,
    ...(error ? { error } : {}),
  });
  return {
    label,
    result,
    ...(error ? { error } : {}),
    output: cut(result.text, config.output_max_size),
    durationMs: elapsed(),
  };
}
