import {
  Agent,
  createToolRegistry,
  defineTool,
  RunStop,
  toolFailure,
  toolSuccess,
  type AgentConfigSlice,
  type AgentEvent,
  type AgentResult,
  type ApprovalHandler,
  type SubagentErrorType,
  type SubagentRefusedEvent,
  type Tool,
  type ToolAuditSink,
  type ToolResult,
} from "@xzatoma/core";
import { createHistoryRecorder, type History, type HistoryRecorder } from "@xzatoma/persistence";
import type { Provider } from "@xzatoma/providers";
import type { z } from "zod";
import { INPUT_NODES } from "../input-nodes.generated.js";
import { MODEL_INPUT_SCHEMAS } from "../model-input-schemas.generated.js";
import { agentOptionsForWindow } from "../context-budget.js";
import {
  runUntilStopHooksAgree,
  withPromptContext,
  type SessionHooks,
} from "../hooks/session-hooks.js";
import { createSystemPrompt } from "../system-prompt.js";
import type { Quota } from "./quota.js";
import type { SubagentConfig } from "./subagent-config.js";
import type { taskInput } from "./subagent-input.js";
import { MAX_TASK_TURNS } from "./task-limits.js";

/** The names of the delegation tools. */
export const SUBAGENT_TOOL_NAMES: readonly string[] = ["subagent", "parallel_subagent"];

const DEFAULT_SUMMARY_PROMPT = "Summarise your findings concisely.";

/** What every subagent of one runtime shares. */
export interface SubagentScope {
  readonly config: SubagentConfig;
  /** The `agent` section: limits and context settings of each child. */
  readonly agentConfig: AgentConfigSlice;
  readonly provider: Provider;
  /** The children's model. */
  readonly model: () => string;
  readonly workspace: string;
  /** Bytes of one tool result a child's model sees. */
  readonly maxOutputBytes: number;
  /** The parent's approvals: a child asks (or is refused) exactly as its parent would be. */
  readonly approve: ApprovalHandler;
  readonly audit?: ToolAuditSink;
  /** The quota of the top-level run in progress. */
  readonly quota: () => Quota;
  /** The top-level run's event stream: subagent events of every depth go there. */
  readonly emit: (event: AgentEvent) => void;
  /** The top-level run's current turn, for the events. */
  readonly turn: () => number;
  /** Where children's conversations are stored; absent when history is off. */
  readonly history?: History;
  /**
   * Called with every child's run as it starts: the owner waits for them before it reports
   * the top-level run as ended (a cancelled child still stores how it ended).
   */
  readonly track: (running: Promise<unknown>) => void;
  /** Told of each call refused before a child started (telemetry's `subagent_errors_total`). */
  readonly refused?: (event: SubagentRefusedEvent) => void;
  /** The session's hooks: `SubagentStart` and `SubagentStop` run around each child. */
  readonly hooks?: Pick<SessionHooks, "configured" | "runner" | "subagentStart" | "subagentStop">;
  /** Receives each child's events (telemetry); may return a listener for them. */
  readonly observe?: (child: StartedChildInfo) => ((event: AgentEvent) => void) | undefined;
}

/** One child, as observers see it. */
export interface ChildInfo {
  readonly label: string;
  readonly depth: number;
  readonly toolCallId: string;
  readonly parent?: string;
}

/** A child as its observers see it once it starts: with the provider and model it runs on. */
export interface StartedChildInfo extends ChildInfo {
  readonly provider: string;
  readonly model: string;
}

/** The agent that holds a pair of delegation tools. */
export interface DelegatingLevel {
  /** 0 for the top-level agent. */
  readonly depth: number;
  /** Its tools without the delegation tools: what a child may be given. */
  readonly tools: readonly Tool[];
  /** Its label; absent for the top-level agent. */
  readonly label?: string;
  /** Stores its conversation now and gives its id (a child's row points at it). */
  readonly conversationId: () => string | undefined;
}

type Task = z.output<typeof taskInput>;

/** How one child ended, for its parent and for `parallel_subagent`'s report. */
interface ChildOutcome {
  readonly label: string;
  readonly result?: AgentResult;
  /** Set when the child did not complete: a refusal before it started, or its stop reason. */
  readonly error?: string;
  readonly output: string;
  readonly durationMs: number;
}

function cut(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return text;
  let end = Math.min(text.length, maxBytes);
  while (Buffer.byteLength(text.slice(0, end), "utf8") > maxBytes - 20) end -= 1;
  return `${text.slice(0, end)}\n... (truncated)`;
}

/** The tools a child gets: the parent's, or the subset `allowed` names. */
function selectTools(
  available: readonly Tool[],
  allowed: readonly string[] | undefined,
): { tools: readonly Tool[]; delegate: boolean } | { error: string } {
  if (allowed === undefined) return { tools: available, delegate: true };
  const names = new Set(available.map((tool) => tool.name));
  const unknown = allowed.filter((name) => !names.has(name) && !SUBAGENT_TOOL_NAMES.includes(name));
  if (unknown.length > 0) {
    return {
      error: `allowed_tools names tools you do not have: ${unknown.join(", ")}. A subagent can only get tools you have: ${[...names].join(", ")}.`,
    };
  }
  return {
    tools: available.filter((tool) => allowed.includes(tool.name)),
    delegate: allowed.some((name) => SUBAGENT_TOOL_NAMES.includes(name)),
  };
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

  async function runChild(
    task: Task,
    toolCallId: string,
    signal: AbortSignal,
  ): Promise<ChildOutcome> {
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
    const parentId =
      scope.history && config.persistence_enabled ? level.conversationId() : undefined;
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
    const tools = [
      ...selected.tools,
      ...(selected.delegate ? createSubagentTools(scope, childLevel) : []),
    ];
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

  const timeoutMs = scope.agentConfig.timeout_seconds * 1000;

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
      const outcome = await runChild(task, context.toolCallId, context.signal);
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
      const limit = Math.min(input.max_concurrent ?? config.max_concurrent, config.max_concurrent);
      const failFast = new AbortController();
      const onParentAbort = () => failFast.abort(context.signal.reason);
      if (context.signal.aborted) onParentAbort();
      else context.signal.addEventListener("abort", onParentAbort, { once: true });
      const outcomes: ChildOutcome[] = new Array<ChildOutcome>(input.tasks.length);
      let next = 0;
      const worker = async () => {
        for (;;) {
          const index = next++;
          const task = input.tasks[index];
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
            outcome = await runChild(task, `${context.toolCallId}#${index}`, failFast.signal);
          } catch (error) {
            outcome = {
              label: task.label,
              error: `Failed: ${error instanceof Error ? error.message : String(error)}.`,
              output: "",
              durationMs: 0,
            };
          }
          outcomes[index] = outcome;
          if (outcome.error !== undefined && input.fail_fast) failFast.abort();
        }
      };
      try {
        await Promise.all(Array.from({ length: Math.min(limit, input.tasks.length) }, worker));
      } finally {
        context.signal.removeEventListener("abort", onParentAbort);
      }
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
